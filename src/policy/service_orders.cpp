#include "policy/service_orders.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace boreas::policy {

ServiceLevels::ServiceLevels(ServiceOptions options) : options_(std::move(options)) {
  for (double t : options_.thresholds_gpu_s) {
    thresholds_us_.push_back(std::llround(t * 1e6));
  }
  std::sort(thresholds_us_.begin(), thresholds_us_.end());
}

int64_t ServiceLevels::attained_us(JobId job, const state::ClusterView& view) const {
  return view.attained_gpu_us(job) - offsets_[job.value()];
}

uint32_t ServiceLevels::level_for(int64_t attained_us) const {
  // A job drops a queue when its attained service reaches the threshold.
  return static_cast<uint32_t>(std::upper_bound(thresholds_us_.begin(), thresholds_us_.end(), attained_us) -
                               thresholds_us_.begin());
}

void ServiceLevels::touch(JobId job, const state::ClusterView& view) {
  const uint32_t i = job.value();
  if (entries_[i] < 0) {
    entries_[i] = next_entry_++;
  }
  const auto& rec = view.record(job);
  if (options_.starvation_factor > 0 && rec.state != JobState::kRunning && rec.run_time > Duration::zero() &&
      static_cast<double>((view.now() - rec.pending_since).us()) >=
          options_.starvation_factor * static_cast<double>(rec.run_time.us()) &&
      levels_[i] > 0) {
    offsets_[i] = view.attained_gpu_us(job);
    levels_[i] = 0;
    entries_[i] = next_entry_++;
    return;
  }
  const uint32_t level = level_for(attained_us(job, view));
  if (level > levels_[i]) {
    levels_[i] = level;
    entries_[i] = next_entry_++;  // a demoted job enters the lower queue at its back
  }
}

void ServiceLevels::update(const state::ClusterView& view) {
  if (levels_.size() < view.job_count()) {
    levels_.resize(view.job_count(), 0);
    entries_.resize(view.job_count(), -1);
    offsets_.resize(view.job_count(), 0);
  }
  for (JobId j : view.running()) {
    touch(j, view);
  }
  for (JobId j : view.pending()) {
    touch(j, view);
  }
}

int64_t ServiceLevels::ceiling_us(JobId job) const {
  const uint32_t level = levels_[job.value()];
  return level < thresholds_us_.size() ? thresholds_us_[level] + offsets_[job.value()] : -1;
}

std::optional<Time> ServiceLevels::next_demotion(const state::ClusterView& view) const {
  std::optional<Time> next;
  for (JobId j : view.running()) {
    const int64_t ceiling = ceiling_us(j);
    const uint32_t gpus = view.spec(j).gpus;
    if (ceiling < 0 || gpus == 0) {
      continue;
    }
    const int64_t left = ceiling - view.attained_gpu_us(j);
    const double per_us = gpus * view.record(j).rate;
    const Time at =
        view.now() + Duration::micros(std::max<int64_t>(1, std::llround(std::ceil(left / per_us))));
    next = next ? std::min(*next, at) : at;
  }
  return next;
}

namespace {

class LasOrder final : public PriorityOrder {
 public:
  explicit LasOrder(ServiceOptions options) : levels_(std::move(options)) {}
  void prepare(const state::ClusterView& view) override { levels_.update(view); }
  SortKey key(JobId job, const state::ClusterView& view) override {
    const bool pending = view.record(job).state != JobState::kRunning;
    return SortKey{static_cast<double>(levels_.level(job)), pending ? 1 : 0, levels_.entry(job)};
  }
  std::optional<Time> wake_at(const state::ClusterView& view) override { return levels_.next_demotion(view); }

 private:
  ServiceLevels levels_;
};

class GittinsOrder final : public PriorityOrder {
 public:
  explicit GittinsOrder(ServiceOptions options) : levels_(std::move(options)) {}
  void prepare(const state::ClusterView& view) override {
    for (; seen_ < view.finished().size(); ++seen_) {
      const JobId j = view.finished()[seen_];
      if (view.record(j).state == JobState::kCompleted) {
        table_.add(view.spec(j).duration.us() * view.spec(j).gpus);
      }
    }
    levels_.update(view);
  }
  // Higher index first; until a job has completed, fall back to LAS order.
  SortKey key(JobId job, const state::ClusterView& view) override {
    const bool pending = view.record(job).state != JobState::kRunning;
    if (table_.empty()) {
      return SortKey{static_cast<double>(levels_.level(job)), pending ? 1 : 0, levels_.entry(job)};
    }
    const int64_t attained = view.attained_gpu_us(job);
    const int64_t ceiling = levels_.ceiling_us(job);
    const int64_t delta = ceiling < 0 ? std::numeric_limits<int64_t>::max() / 4 : ceiling - attained;
    return SortKey{-table_.index(attained, std::max<int64_t>(delta, 1)), pending ? 1 : 0, levels_.entry(job)};
  }
  std::optional<Time> wake_at(const state::ClusterView& view) override { return levels_.next_demotion(view); }

 private:
  ServiceLevels levels_;
  GittinsTable table_;
  size_t seen_ = 0;
};

}  // namespace

std::unique_ptr<PriorityOrder> make_las_order(ServiceOptions options) {
  return std::make_unique<LasOrder>(std::move(options));
}
std::unique_ptr<PriorityOrder> make_gittins_order(ServiceOptions options) {
  return std::make_unique<GittinsOrder>(std::move(options));
}

}  // namespace boreas::policy
