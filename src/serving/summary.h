#pragma once
// summary.json of `boreas sim serving` (docs/serving.md "Output"): latency percentiles, SLO
// attainment, goodput, GPU-hours, cold starts, prefix hit ratio, cost and energy.

#include <nlohmann/json.hpp>

#include "core/gpu.h"
#include "serving/request_trace.h"
#include "serving/service_spec.h"
#include "serving/simulator.h"
#include "serving/slo.h"

namespace boreas::serving {

struct Summary {
  double ttft_p50_s = 0, ttft_p90_s = 0, ttft_p99_s = 0;
  double tbt_p50_s = 0, tbt_p90_s = 0, tbt_p99_s = 0;
  double tbt_top10_mean_s = 0;  // Mooncake's "mean of the longest 10% of gaps"
  double e2e_p50_s = 0, e2e_p90_s = 0, e2e_p99_s = 0;
  std::vector<SloRow> slowdown;  // Splitwise's rows: P50/P90/P99 of each slowdown against its limit
  double slo_attainment = 0;     // requests meeting the SLO / all requests (docs/serving.md "SLOs")
  bool slo_met = false;          // slowdown: every row passes; absolute: slo_attainment >= target
  double goodput_rps = 0;        // requests meeting the SLO per second of the run
  double gpu_hours = 0;
  double cost_usd = 0;          // GPU-hours at the catalog's on-demand price
  double energy_kwh = 0;        // idle power all the time, TDP while iterating
};

Summary summarize(const RequestTrace& trace, const ServiceSpec& service, const GpuType& gpu, const ServingRun& run);

// Nearest-rank percentile (q in [0,1]) of `v`, reordering it; 0 for an empty vector.
double percentile(std::vector<double>& v, double q);
// The same over weighted samples (each value counted `count` times), sorting them.
double percentile(std::vector<GapSample>& v, double q);

nlohmann::json summary_json(const Summary& s, const ServingRun& run, const ServiceSpec& service, size_t requests);

}  // namespace boreas::serving
