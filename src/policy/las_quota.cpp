#include "policy/las_quota.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <vector>

#include "policy/placement.h"
#include "policy/quota.h"

namespace boreas::policy {
namespace {

enum Tier : uint32_t { kOwed = 0, kCapped = 1, kRest = 2 };

class LasQuotaOrder final : public PriorityOrder {
 public:
  LasQuotaOrder(ServiceOptions service, std::shared_ptr<const QueueTree> queues)
      : max_preemptions_(service.max_preemptions), levels_(std::move(service)), queues_(std::move(queues)) {}

  void prepare(const state::ClusterView& view, bool /*pending_only*/) override {
    levels_.update(view);
    if (!book_) {
      book_ = std::make_unique<QuotaBook>(queues_.get(), view.cluster());
    }
    resize(view.job_count());
    if (assign_tiers(view)) {
      ++epoch_;
    }
  }
  uint64_t pending_key_epoch() const override { return epoch_; }
  SortKey key(JobId job, const state::ClusterView& view) override {
    levels_.touch(job, view);
    const auto [level, waiting, entry] = las_key(job, view);
    return SortKey{static_cast<double>(tier_[job.value()]) * kLevelsPerTier + level, waiting, entry};
  }
  std::optional<Time> wake_at(const state::ClusterView& view, const Plan& plan) override {
    return levels_.next_demotion(view, plan);
  }

 private:
  static constexpr double kLevelsPerTier = 1e6;

  // LAS's order: level, running before waiting, then the time the job entered its level.
  std::tuple<uint32_t, int64_t, int64_t> las_key(JobId job, const state::ClusterView& view) const {
    return {levels_.level(job), view.record(job).state == JobState::kRunning ? 0 : 1, levels_.entry(job)};
  }

  void resize(size_t jobs) {
    tier_.resize(std::max(tier_.size(), jobs), kRest);
    queue_.resize(std::max(queue_.size(), jobs), -1);
  }

  uint32_t queue_of(JobId job, const state::ClusterView& view) {
    int32_t& q = queue_[job.value()];
    if (q < 0) {
      q = static_cast<int32_t>(book_->queue_of(view.spec(job).queue, view.state().symbols()));
    }
    return static_cast<uint32_t>(q);
  }

  // The GPUs a job holds by type, or for a waiting job its count on the first allowed type the
  // cluster has.
  const Demand& demand(JobId job, const state::ClusterView& view) {
    if (view.record(job).state == JobState::kRunning) {
      demand_ = demand_of(view.record(job).gpus, view);
      return demand_;
    }
    demand_.clear();
    for (GpuTypeId t : types_.allowed(view.spec(job), view)) {
      if (book_->capacity(t) > 0) {
        demand_.push_back(TypeCount{t, view.spec(job).gpus});
        break;
      }
    }
    return demand_;
  }

  // Each queue's jobs in LAS order fill its guarantee (skipping gangs that do not fit); returns
  // whether a waiting job changed tier, so waiting keys must be read again.
  bool assign_tiers(const state::ClusterView& view) {
    order_.clear();
    for (JobId j : view.running()) {
      order_.push_back(j);
    }
    for (JobId j : view.pending()) {
      order_.push_back(j);
    }
    for (JobId j : order_) {
      levels_.touch(j, view);
    }
    auto las = [&](JobId a, JobId b) {
      const auto ka = las_key(a, view);
      const auto kb = las_key(b, view);
      return ka != kb ? ka < kb : a < b;
    };
    std::sort(order_.begin(), order_.end(), las);
    book_->clear_usage();
    bool pending_changed = false;
    for (JobId j : order_) {
      const uint32_t q = queue_of(j, view);
      const Demand& d = demand(j, view);
      Tier t = kRest;
      if (!d.empty() && book_->within_guarantee(q, d)) {
        book_->add(q, d, +1);
        t = kOwed;
      } else if (max_preemptions_ > 0 && view.record(j).state == JobState::kRunning &&
                 view.record(j).preemptions >= max_preemptions_) {
        t = kCapped;
      }
      if (tier_[j.value()] != t) {
        pending_changed = pending_changed || view.record(j).state != JobState::kRunning;
        tier_[j.value()] = t;
      }
    }
    return pending_changed;
  }

  uint32_t max_preemptions_;
  ServiceLevels levels_;
  std::shared_ptr<const QueueTree> queues_;
  std::unique_ptr<QuotaBook> book_;
  uint64_t epoch_ = 0;
  TypeFilter types_;
  std::vector<uint8_t> tier_;
  std::vector<int32_t> queue_;
  std::vector<JobId> order_;
  Demand demand_;
};

}  // namespace

std::unique_ptr<PriorityOrder> make_las_quota_order(ServiceOptions service, const TenancyOptions& tenancy) {
  return std::make_unique<LasQuotaOrder>(std::move(service), tenancy.queues);
}

}  // namespace boreas::policy
