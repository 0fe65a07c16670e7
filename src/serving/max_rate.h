#pragma once
// `--find-max-rate` (docs/serving.md "Max rate at SLO"): the largest request rate at which the
// service meets its SLO, the trace's arrivals compressed or stretched in time, at a fixed replica
// count (the autoscaler pinned at max_replicas). Bracketing by doubling or halving the rate, then
// geometric bisection until the bracket is narrower than the tolerance. Deterministic.

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "serving/request_trace.h"
#include "serving/service_spec.h"
#include "serving/simulator.h"

namespace boreas::serving {

struct RateProbe {
  double rate_rps = 0;  // requests / span of the scaled arrivals
  double scale = 0;     // the trace's own rate x this
  bool slo_met = false;
  double slo_attainment = 0;
};

struct MaxRateOptions {
  double tolerance = 0.02;  // stop when (fail - met) / met <= this
  int32_t max_probes = 40;
};

struct MaxRateResult {
  double max_rate_rps = 0;    // the highest probed rate that met the SLO
  double trace_rate_rps = 0;  // the trace as recorded
  double scale = 0;           // max_rate_rps / trace_rate_rps
  int32_t replicas = 0;
  std::vector<RateProbe> probes;  // in the order tried
};

// The service with its autoscaler off and max_replicas warm replicas from the start.
ServiceSpec pinned_at_max(const ServiceSpec& service);

// The trace with every arrival divided by `scale` (scale 2 = twice the rate).
RequestTrace time_scaled(const RequestTrace& trace, double scale);

// Requests per second of the trace: requests / (last arrival - first arrival).
Result<double> request_rate(const RequestTrace& trace);

Result<MaxRateResult> find_max_rate(const RequestTrace& trace, const ServiceSpec& service, const Placement& placement,
                                    const SimOptions& sim, const MaxRateOptions& options = {});

}  // namespace boreas::serving
