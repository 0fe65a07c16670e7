#include "serving/autoscaler.h"

#include <algorithm>
#include <cmath>

namespace boreas::serving {

int32_t Autoscaler::clamp(double replicas) const {
  const double r = std::ceil(replicas - 1e-9);
  return static_cast<int32_t>(std::clamp<double>(r, spec_.min_replicas, spec_.max_replicas));
}

double Autoscaler::rate_between(int64_t from_us, int64_t to_us) const {
  const auto lo = std::lower_bound(arrivals_.begin(), arrivals_.end(), from_us);
  const auto hi = std::lower_bound(arrivals_.begin(), arrivals_.end(), to_us);
  return static_cast<double>(hi - lo) / (static_cast<double>(to_us - from_us) / 1e6);
}

int32_t Autoscaler::desired(const LoadSignal& load) {
  const auto window_us = static_cast<int64_t>(spec_.window_s * 1e6);
  while (!arrivals_.empty() && arrivals_.front() < load.now_us - 2 * window_us) {
    arrivals_.pop_front();
  }
  if (spec_.kind == AutoscalerKind::kReactive) {
    return clamp(static_cast<double>(load.inflight) / spec_.target_inflight);
  }
  if (spec_.kind == AutoscalerKind::kPredictive) {
    const double recent = rate_between(load.now_us - window_us, load.now_us + 1);
    const double before = rate_between(load.now_us - 2 * window_us, load.now_us - window_us);
    const double ahead_s = load.cold_start_s + spec_.interval_s;
    const double predicted = std::max(0.0, recent + (recent - before) * ahead_s / spec_.window_s);
    // Until a request has finished, the latency is unknown: keep what the queue says.
    const double in_flight = load.mean_latency_s > 0 ? predicted * load.mean_latency_s
                                                     : static_cast<double>(load.inflight);
    return clamp(in_flight / spec_.target_inflight);
  }
  return clamp(spec_.initial_replicas);
}

}  // namespace boreas::serving
