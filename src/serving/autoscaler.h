#pragma once
// Decides how many replicas a service should have (docs/serving.md "Autoscalers").
//  reactive:   in-flight requests now / target per replica (Ray Serve, Knative's concurrency target)
//  predictive: arrival rate extrapolated from the trace's own past (the last two windows) one cold
//              start ahead, times the mean latency observed so far (Little's law), / target

#include <cstdint>
#include <deque>

#include "serving/service_spec.h"

namespace boreas::serving {

struct LoadSignal {
  int64_t now_us = 0;
  size_t inflight = 0;             // requests queued or running on all replicas
  double mean_latency_s = 0;       // mean E2E of requests finished so far (0: none yet)
  double cold_start_s = 0;
};

class Autoscaler {
 public:
  explicit Autoscaler(const AutoscalerSpec& spec) : spec_(spec) {}
  void on_arrival(int64_t now_us) { arrivals_.push_back(now_us); }
  // The replica count it wants, within [min_replicas, max_replicas].
  int32_t desired(const LoadSignal& load);

 private:
  double rate_between(int64_t from_us, int64_t to_us) const;
  int32_t clamp(double replicas) const;

  AutoscalerSpec spec_;
  std::deque<int64_t> arrivals_;  // the last two windows
};

}  // namespace boreas::serving
