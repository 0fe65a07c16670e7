#pragma once
// Splitwise's slowdown SLOs (Patel et al., ISCA'24; docs/serving.md "SLOs"): each request's TTFT,
// mean time between tokens and end-to-end latency are divided by the same request's latencies alone
// on an unloaded replica (its prefill alone, then its decode at batch 1, from the cost model); the
// service meets the SLO when the P50/P90/P99 of those slowdowns are within the limits below.

#include <string>
#include <vector>

#include "core/gpu.h"
#include "serving/cost_model.h"
#include "serving/recorder.h"
#include "serving/request_trace.h"
#include "serving/service_spec.h"

namespace boreas::serving {

// One request alone on an unloaded replica. tbt_s is the mean gap between its tokens; 0 when it
// has no second token (one output token, or dynamic batching, which gives one output per request).
struct IsolatedLatency {
  double ttft_s = 0;
  double tbt_s = 0;
  double e2e_s = 0;
};

CostModel cost_model_for(const ServiceSpec& service, const GpuType& gpu);
IsolatedLatency isolated_latency(const Request& r, const ServiceSpec& service, const CostModel& cost);

// One row of the SLO table: the `quantile` of `metric`'s slowdowns must be at most `limit`.
struct SloRow {
  std::string metric;  // "ttft", "tbt", "e2e"
  double quantile = 0;
  double limit = 0;
  double slowdown = 0;  // measured; 0 when no request has this metric (the row then passes)
  bool pass = false;
};

// Splitwise's limits: TTFT 2/3/6x, TBT and E2E 1.25/1.5/5x at P50/P90/P99.
std::vector<SloRow> splitwise_slo_rows();

struct SlowdownReport {
  std::vector<SloRow> rows;
  bool met = false;     // every row passes
  size_t within = 0;    // requests whose slowdowns are all within the P99 limits
};

// Slowdowns of every request of `run`, against the rows' limits.
SlowdownReport slowdown_report(const RequestTrace& trace, const ServiceSpec& service, const GpuType& gpu,
                               const std::vector<Outcome>& outcomes);

}  // namespace boreas::serving
