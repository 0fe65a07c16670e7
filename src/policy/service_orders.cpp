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

bool ServiceLevels::touch(JobId job, const state::ClusterView& view) {
  const uint32_t i = job.value();
  if (entries_[i] < 0) {
    entries_[i] = view.spec(job).submit.us();
  }
  const auto& rec = view.record(job);
  if (options_.starvation_factor > 0 && rec.state != JobState::kRunning && rec.run_time > Duration::zero() &&
      static_cast<double>((view.now() - rec.pending_since).us()) >=
          options_.starvation_factor * static_cast<double>(rec.run_time.us()) &&
      levels_[i] > 0) {
    offsets_[i] = view.attained_gpu_us(job);
    levels_[i] = 0;
    entries_[i] = view.now().us();
    return true;
  }
  const int64_t attained = attained_us(job, view);
  const uint32_t level = level_for(attained);
  if (level > levels_[i]) {
    // It entered the lower queue when it crossed the threshold: it has run since the last round.
    const double per_us = view.spec(job).gpus * rec.rate;
    const auto over = static_cast<int64_t>((attained - thresholds_us_[level - 1]) / per_us);
    levels_[i] = level;
    entries_[i] = view.now().us() - over;
    return true;
  }
  return false;
}

// Touching only some jobs is safe: a demotion's entry time is computed from the crossing, not
// from when it is noticed.
bool ServiceLevels::update(const state::ClusterView& view, bool pending_only) {
  if (levels_.size() < view.job_count()) {
    levels_.resize(view.job_count(), 0);
    entries_.resize(view.job_count(), -1);
    offsets_.resize(view.job_count(), 0);
  }
  changed_.clear();
  if (!pending_only) {
    for (JobId j : view.running()) {
      if (touch(j, view)) {
        changed_.push_back(j);
      }
    }
  }
  bool changed = false;
  if (options_.starvation_factor > 0) {  // waiting jobs' levels move only through promotion
    for (JobId j : view.pending()) {
      changed = touch(j, view) || changed;
    }
  }
  return changed;
}

int64_t ServiceLevels::ceiling_us(JobId job) const {
  const uint32_t level = levels_[job.value()];
  return level < thresholds_us_.size() ? thresholds_us_[level] + offsets_[job.value()] : -1;
}

std::optional<Time> ServiceLevels::next_demotion(const state::ClusterView& view,
                                                 std::span<const JobId> running) const {
  std::optional<Time> next;
  for (JobId j : running) {
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
  void prepare(const state::ClusterView& view, bool pending_only) override {
    epoch_ += levels_.update(view, pending_only) ? 1 : 0;
  }
  uint64_t pending_key_epoch() const override { return epoch_; }
  bool running_keys_stable() const override { return true; }
  std::span<const JobId> changed_keys() const override { return levels_.changed(); }
  SortKey key(JobId job, const state::ClusterView& view) override {
    levels_.touch(job, view);
    const bool pending = view.record(job).state != JobState::kRunning;
    return SortKey{static_cast<double>(levels_.level(job)), pending ? 1 : 0, levels_.entry(job)};
  }
  std::optional<Time> wake_at(const state::ClusterView& view, std::span<const JobId> running) override {
    return levels_.next_demotion(view, running);
  }

 private:
  ServiceLevels levels_;
  uint64_t epoch_ = 0;
};

class GittinsOrder final : public PriorityOrder {
 public:
  explicit GittinsOrder(ServiceOptions options) : levels_(std::move(options)) {}
  void prepare(const state::ClusterView& view, bool pending_only) override {
    for (; seen_ < view.finished().size(); ++seen_) {
      const JobId j = view.finished()[seen_];
      if (view.record(j).state == JobState::kCompleted) {
        table_.add(view.spec(j).duration.us() * view.spec(j).gpus);
      }
    }
    const bool promoted = levels_.update(view, pending_only);
    epoch_ += (table_.refresh() || promoted) ? 1 : 0;
  }
  uint64_t pending_key_epoch() const override { return epoch_; }
  // Higher index first; until a job has completed, fall back to LAS order.
  SortKey key(JobId job, const state::ClusterView& view) override {
    levels_.touch(job, view);
    const bool pending = view.record(job).state != JobState::kRunning;
    if (table_.empty()) {
      return SortKey{static_cast<double>(levels_.level(job)), pending ? 1 : 0, levels_.entry(job)};
    }
    const int64_t attained = view.attained_gpu_us(job);
    const int64_t ceiling = levels_.ceiling_us(job);
    const int64_t delta = ceiling < 0 ? std::numeric_limits<int64_t>::max() / 4 : ceiling - attained;
    return SortKey{-table_.index(attained, std::max<int64_t>(delta, 1)), pending ? 1 : 0, levels_.entry(job)};
  }
  std::optional<Time> wake_at(const state::ClusterView& view, std::span<const JobId> running) override {
    return levels_.next_demotion(view, running);
  }

 private:
  ServiceLevels levels_;
  GittinsTable table_;
  size_t seen_ = 0;
  uint64_t epoch_ = 0;
};

}  // namespace

std::unique_ptr<PriorityOrder> make_las_order(ServiceOptions options) {
  return std::make_unique<LasOrder>(std::move(options));
}
std::unique_ptr<PriorityOrder> make_gittins_order(ServiceOptions options) {
  return std::make_unique<GittinsOrder>(std::move(options));
}

}  // namespace boreas::policy
