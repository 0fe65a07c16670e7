#include "policy/duration_estimate.h"

#include <algorithm>
#include <cmath>

namespace boreas::policy {

void DurationEstimator::LogMean::add(double seconds) {
  log_sum += std::log(std::max(seconds, 1.0));
  n += 1;
}

Duration DurationEstimator::LogMean::value() const {
  return Duration::from_seconds(std::exp(log_sum / static_cast<double>(n)));
}

void DurationEstimator::learn(const state::ClusterView& view) {
  const auto& finished = view.finished();
  if (state_ != &view.state() || finished.size() < seen_finished_) {
    *this = DurationEstimator();
    state_ = &view.state();
  }
  for (; seen_finished_ < finished.size(); ++seen_finished_) {
    const JobId job = finished[seen_finished_];
    if (view.record(job).state != JobState::kCompleted) {
      continue;
    }
    const JobSpec& spec = view.spec(job);
    const double seconds = spec.duration.to_seconds();
    by_queue_gpus_[{spec.queue.index(), spec.gpus}].add(seconds);
    by_queue_[spec.queue.index()].add(seconds);
    all_.add(seconds);
  }
}

Duration DurationEstimator::estimate(const JobSpec& job, const state::ClusterView& view) {
  if (job.time_limit > Duration::zero()) {
    return job.time_limit;
  }
  learn(view);
  if (auto it = by_queue_gpus_.find({job.queue.index(), job.gpus});
      it != by_queue_gpus_.end() && it->second.n >= kMinHistory) {
    return it->second.value();
  }
  if (auto it = by_queue_.find(job.queue.index()); it != by_queue_.end() && it->second.n >= kMinHistory) {
    return it->second.value();
  }
  return all_.n > 0 ? all_.value() : Duration::infinite();
}

}  // namespace boreas::policy
