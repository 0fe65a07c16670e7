#include "policy/las_quota.h"

#include <algorithm>
#include <compare>
#include <optional>
#include <vector>

#include "policy/placement.h"
#include "policy/quota.h"

namespace boreas::policy {
namespace {

enum Tier : uint32_t { kOwed = 0, kCapped = 1, kRest = 2 };

// LAS's order: level, running before waiting, then the time the job entered its level; ties to
// the lower job id.
struct LasEntry {
  uint32_t level = 0;
  uint32_t waiting = 0;  // 0 running, 1 waiting
  int64_t entry = 0;
  JobId job;
  auto operator<=>(const LasEntry&) const = default;
};

// The order is kept across rounds (`kept`). A job's LAS key changes only when its lifecycle state
// changes (the state's journal), when it crosses a level while running (ServiceLevels' demotions)
// or when starvation promotes it; so a round re-keys the journal's jobs and the demoted ones and
// merges them into the last round's order instead of sorting every active job. Running jobs at a
// rate other than 1 are touched every round too, as the full walk touched every job: the rounding
// of their work may show a crossing a microsecond before ServiceLevels' predicted time (at rate 1
// both are the same integer arithmetic). Each job's queue and waiting demand are read once, a
// running job's demand at its start. Waiting jobs whose tier changed are handed to the scheduler
// as changed keys, and it re-keys those alone, not every waiting job. With starvation promotion on
// (it moves waiting jobs' levels without naming them) and on the plain path, every round touches
// and sorts every active job and a tier change bumps the epoch.
class LasQuotaOrder final : public PriorityOrder {
 public:
  LasQuotaOrder(ServiceOptions service, std::shared_ptr<const QueueTree> queues, bool kept)
      : max_preemptions_(service.max_preemptions),
        kept_(kept && service.starvation_factor <= 0),
        levels_(std::move(service)),
        queues_(std::move(queues)) {}

  void prepare(const state::ClusterView& view, bool /*pending_only*/) override {
    levels_.update(view);
    if (!book_) {
      book_ = std::make_unique<QuotaBook>(queues_.get(), view.cluster());
    }
    resize(view.job_count());
    if (kept_) {
      follow(view);
    } else {
      rebuild(view);
    }
    assign_tiers(view);
    if (!kept_ && !changed_.empty()) {
      ++epoch_;
      changed_.clear();
    }
  }
  uint64_t pending_key_epoch() const override { return epoch_; }
  std::span<const JobId> changed_keys() const override { return changed_; }
  SortKey key(JobId job, const state::ClusterView& view) override {
    levels_.touch(job, view);
    const LasEntry e = las_entry(job, view);
    return SortKey{static_cast<double>(tier_[job.value()]) * kLevelsPerTier + e.level, e.waiting, e.entry};
  }
  std::optional<Time> wake_at(const state::ClusterView& view, const Plan& plan) override {
    return levels_.next_demotion(view, plan);
  }

 private:
  static constexpr double kLevelsPerTier = 1e6;

  LasEntry las_entry(JobId job, const state::ClusterView& view) const {
    return LasEntry{levels_.level(job), view.record(job).state == JobState::kRunning ? 0u : 1u,
                    levels_.entry(job), job};
  }

  void resize(size_t jobs) {
    if (tier_.size() >= jobs) {
      return;
    }
    tier_.resize(jobs, kRest);
    queue_.resize(jobs, -1);
    wait_demand_.resize(jobs);
    run_demand_.resize(jobs);
    wait_known_.resize(jobs, 0);
    in_order_.resize(jobs, 0);
    keyed_.resize(jobs);
    mark_.resize(jobs, 0);
  }

  uint32_t queue_of(JobId job, const state::ClusterView& view) {
    int32_t& q = queue_[job.value()];
    if (q < 0) {
      q = static_cast<int32_t>(book_->queue_of(view.spec(job).queue, view.state().symbols()));
    }
    return static_cast<uint32_t>(q);
  }

  // A waiting job's count on the first allowed type the cluster has (none: it is never owed).
  Demand waiting_demand(JobId job, const state::ClusterView& view) {
    for (GpuTypeId t : types_.allowed(view.spec(job), view)) {
      if (book_->capacity(t) > 0) {
        return Demand{TypeCount{t, view.spec(job).gpus}};
      }
    }
    return {};
  }

  // What the job asks of its queue's guarantee: the GPUs it holds by type, or for a waiting job
  // its count on the first allowed type the cluster has (read once on the kept path: it depends on
  // the spec alone).
  void learn_demand(JobId job, const state::ClusterView& view) {
    const uint32_t i = job.value();
    queue_of(job, view);
    if (view.record(job).state == JobState::kRunning) {
      run_demand_[i] = demand_of(view.record(job).gpus, view);
    } else if (!wait_known_[i]) {
      wait_demand_[i] = waiting_demand(job, view);
      wait_known_[i] = kept_ ? 1 : 0;
    }
  }

  // The plain path: every active job touched and read again, the order sorted from scratch.
  void rebuild(const state::ClusterView& view) {
    order_.clear();
    for (JobId j : view.running()) {
      order_.push_back(LasEntry{0, 0, 0, j});
    }
    for (JobId j : view.pending()) {
      order_.push_back(LasEntry{0, 0, 0, j});
    }
    for (LasEntry& e : order_) {
      levels_.touch(e.job, view);
      learn_demand(e.job, view);
      e = las_entry(e.job, view);
    }
    std::sort(order_.begin(), order_.end());
  }

  void note(JobId job) {
    if (mark_[job.value()] != round_) {
      mark_[job.value()] = round_;
      moved_.push_back(job);
    }
  }

  // The kept path: the jobs whose key may have moved re-keyed and merged into the order.
  void follow(const state::ClusterView& view) {
    ++round_;
    moved_.clear();
    const auto journal = view.state().journal();
    for (; journal_seen_ < journal.size(); ++journal_seen_) {
      const JobId j = journal[journal_seen_];
      learn_demand(j, view);
      note(j);
    }
    for (JobId j : levels_.changed()) {
      note(j);
    }
    for (JobId j : view.running()) {
      if (view.record(j).rate != 1.0) {
        note(j);
      }
    }
    added_.clear();
    bool stale = false;
    for (JobId j : moved_) {
      levels_.touch(j, view);
      const bool active = view.record(j).state == JobState::kRunning || view.pending().count(j) > 0;
      const LasEntry now = las_entry(j, view);
      if (in_order_[j.value()] && active && keyed_[j.value()] == now) {
        continue;
      }
      stale = stale || in_order_[j.value()];
      in_order_[j.value()] = active ? 1 : 0;
      if (active) {
        keyed_[j.value()] = now;
        added_.push_back(now);
      }
    }
    merge(stale);
  }

  void merge(bool stale) {
    if (stale) {
      std::erase_if(order_, [&](const LasEntry& e) { return !in_order_[e.job.value()] || keyed_[e.job.value()] != e; });
    }
    if (added_.empty()) {
      return;
    }
    std::sort(added_.begin(), added_.end());
    const auto kept = static_cast<std::ptrdiff_t>(order_.size());
    order_.insert(order_.end(), added_.begin(), added_.end());
    std::inplace_merge(order_.begin(), order_.begin() + kept, order_.end());
  }

  // Each queue's jobs in LAS order fill its guarantee (skipping gangs that do not fit); the waiting
  // jobs whose tier changed are listed in changed_.
  void assign_tiers(const state::ClusterView& view) {
    book_->clear_usage();
    changed_.clear();
    for (const LasEntry& e : order_) {
      const uint32_t i = e.job.value();
      const bool running = e.waiting == 0;
      const Demand& d = running ? run_demand_[i] : wait_demand_[i];
      const auto q = static_cast<uint32_t>(queue_[i]);
      Tier t = kRest;
      if (!d.empty() && book_->within_guarantee(q, d)) {
        book_->add(q, d, +1);
        t = kOwed;
      } else if (max_preemptions_ > 0 && running && view.record(e.job).preemptions >= max_preemptions_) {
        t = kCapped;
      }
      if (tier_[i] != t) {
        tier_[i] = t;
        if (!running) {
          changed_.push_back(e.job);
        }
      }
    }
  }

  uint32_t max_preemptions_;
  bool kept_;
  ServiceLevels levels_;
  std::shared_ptr<const QueueTree> queues_;
  std::unique_ptr<QuotaBook> book_;
  uint64_t epoch_ = 0;
  TypeFilter types_;
  std::vector<uint8_t> tier_;
  std::vector<int32_t> queue_;
  std::vector<Demand> wait_demand_, run_demand_;  // by job
  std::vector<uint8_t> wait_known_;               // by job: wait_demand_ read (kept path)
  std::vector<LasEntry> order_;                   // active jobs in LAS order
  std::vector<LasEntry> added_;                   // scratch: entries to merge in
  std::vector<uint8_t> in_order_;                 // by job: has a live entry in order_
  std::vector<LasEntry> keyed_;                   // by job: its live entry
  std::vector<uint64_t> mark_;                    // by job: the round it was noted in
  std::vector<JobId> moved_, changed_;
  size_t journal_seen_ = 0;
  uint64_t round_ = 0;
};

}  // namespace

std::unique_ptr<PriorityOrder> make_las_quota_order(ServiceOptions service, const TenancyOptions& tenancy, bool kept) {
  return std::make_unique<LasQuotaOrder>(std::move(service), tenancy.queues, kept);
}

}  // namespace boreas::policy
