#include "policy/las_quota.h"

#include <algorithm>
#include <compare>
#include <limits>
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
// running job's demand at its start. Queues under different roots share no guarantee, so the
// order is kept per root and the owed tier is found again only under the roots whose jobs
// changed (walk_dirty_groups). The jobs whose tier or LAS key changed, running or waiting,
// are handed to the scheduler as changed keys, and it re-keys those alone, not every waiting job,
// and keeps its running jobs sorted instead of re-keying them every round. With starvation promotion on
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
      type_count_ = static_cast<uint32_t>(view.cluster().catalog.size());
    }
    resize(view.job_count());
    changed_.clear();
    if (kept_) {
      follow(view);
      walk_dirty_groups(view);
      return;
    }
    rebuild(view);
    assign_tiers(view);
    if (!changed_.empty()) {
      ++epoch_;
      changed_.clear();
    }
  }
  uint64_t pending_key_epoch() const override { return epoch_; }
  // On the kept path every job whose key moved is named in changed_keys(), running ones too.
  bool running_keys_stable() const override { return kept_; }
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

  // The active jobs under one root queue in LAS order (kept path).
  struct Group {
    uint32_t root = 0;
    std::vector<LasEntry> order;
    std::vector<LasEntry> added;    // entries to merge in
    std::vector<LasEntry> removed;  // live entries replaced or dropped this round
    bool dirty = false;             // to be walked this round
    LasEntry first;                 // while dirty: the first entry a change touched
    std::vector<LasEntry> owed;     // its owed jobs after the last walk, in LAS order
    bool stopped = false;           // the last walk stopped once nothing more fitted,
    LasEntry stop;                  // after this entry (kBeforeAll: before any)
    uint32_t gang = 0;              // min_gang_ at the last walk
  };
  static constexpr LasEntry kBeforeAll{0, 0, std::numeric_limits<int64_t>::min(), JobId()};

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
    owed_mark_.resize(jobs, 0);
    owed_demand_.resize(jobs);
    journal_mark_.resize(jobs, 0);
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
      demand_into(view.record(job).gpus, view, run_demand_[i]);  // into its kept capacity
      note_gang(run_demand_[i]);
    } else if (!wait_known_[i]) {
      wait_demand_[i] = waiting_demand(job, view);
      wait_known_[i] = kept_ ? 1 : 0;
      note_gang(wait_demand_[i]);
    }
  }

  // What the entry's job asks of its queue's guarantee as it was last learned.
  const Demand& demand(const LasEntry& e) const {
    return e.waiting == 0 ? run_demand_[e.job.value()] : wait_demand_[e.job.value()];
  }

  // min_gang_ bounds from below, for every demand learned, its largest count of one type.
  void note_gang(const Demand& d) {
    uint32_t most = 0;
    for (const TypeCount& tc : d) {
      most = std::max(most, tc.gpus);
    }
    if (!d.empty()) {
      min_gang_ = std::min(min_gang_, most);
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
      journal_mark_[j.value()] = round_;
    }
    for (JobId j : levels_.changed()) {
      note(j);
    }
    for (JobId j : view.running()) {
      if (view.record(j).rate != 1.0) {
        note(j);
      }
    }
    dirty_.clear();
    for (JobId j : moved_) {
      levels_.touch(j, view);
      const bool active = view.record(j).state == JobState::kRunning || view.pending().count(j) > 0;
      const LasEntry now = las_entry(j, view);
      Group& g = group_of(j);
      if (journal_mark_[j.value()] == round_ && in_order_[j.value()]) {
        dirty(g, keyed_[j.value()]);  // its demand may have changed, or its tier below the owed one
      }
      if (in_order_[j.value()] && active && keyed_[j.value()] == now) {
        continue;
      }
      if (in_order_[j.value()]) {
        dirty(g, keyed_[j.value()]);
        g.removed.push_back(keyed_[j.value()]);
      }
      in_order_[j.value()] = active ? 1 : 0;
      if (active) {
        dirty(g, now);
        keyed_[j.value()] = now;
        g.added.push_back(now);
        name(j);
      }
    }
    for (uint32_t g : dirty_) {
      merge(groups_[g]);
    }
  }

  // Drops the group's replaced entries and merges the new ones in, both from the first position
  // they touch: each list sorted, no entry looked up by job.
  void merge(Group& g) {
    std::vector<LasEntry>& order = g.order;
    if (!g.removed.empty()) {
      std::sort(g.removed.begin(), g.removed.end());
      auto out = std::lower_bound(order.begin(), order.end(), g.removed.front());
      auto r = g.removed.begin();
      for (auto in = out; in != order.end(); ++in) {
        if (r != g.removed.end() && *in == *r) {
          ++r;
        } else {
          *out++ = *in;
        }
      }
      order.erase(out, order.end());
      g.removed.clear();
    }
    if (g.added.empty()) {
      return;
    }
    std::sort(g.added.begin(), g.added.end());
    auto kept = static_cast<std::ptrdiff_t>(order.size());
    auto add = static_cast<std::ptrdiff_t>(g.added.size());
    order.resize(order.size() + g.added.size());
    for (auto w = kept + add; add > 0;) {
      if (kept > 0 && g.added[add - 1] < order[kept - 1]) {
        order[--w] = order[--kept];
      } else {
        order[--w] = g.added[--add];
      }
    }
    g.added.clear();
  }

  // The tree's root above a book queue (queues missing from the tree are roots of their own).
  uint32_t root_of(uint32_t q) const {
    while (queues_ && q < queues_->queues.size() && queues_->parent[q]) {
      q = queues_->parent[q]->value();
    }
    return q;
  }

  Group& group_of(JobId job) {
    const auto q = static_cast<uint32_t>(queue_[job.value()]);
    const uint32_t root = root_of(q);
    if (groups_.size() <= root) {
      groups_.resize(root + 1);
    }
    groups_[root].root = root;
    return groups_[root];
  }

  // The group changed at `at` (an entry that entered, left or may have changed demand).
  void dirty(Group& g, const LasEntry& at) {
    if (!g.dirty) {
      g.dirty = true;
      g.first = at;
      dirty_.push_back(g.root);
    }
    g.first = std::min(g.first, at);
  }

  Tier below_owed(JobId job, const state::ClusterView& view) const {
    const bool capped = max_preemptions_ > 0 && view.record(job).state == JobState::kRunning &&
                        view.record(job).preemptions >= max_preemptions_;
    return capped ? kCapped : kRest;
  }

  void set_tier(JobId job, Tier t) {
    if (tier_[job.value()] != t) {
      tier_[job.value()] = t;
      name(job);
    }
  }

  // A job whose key changed; those of the journal the scheduler re-keys from the journal anyway.
  void name(JobId job) {
    if (journal_mark_[job.value()] != round_) {
      changed_.push_back(job);
    }
  }

  // No job of the group fits any more: on every type the root's guarantee has less room than
  // the smallest gang (its largest count of one type) any job asks for.
  bool full(uint32_t root) const {
    for (uint32_t t = 0; t < type_count_; ++t) {
      const GpuTypeId type(t);
      if (book_->capacity(type) > 0 &&
          book_->usage(root, type) + min_gang_ <= book_->guaranteed(root, type)) {
        return false;
      }
    }
    return true;
  }

  // The kept path: queues under different roots share no guarantee, so each root's jobs fill
  // their guarantees alone, as the walk over all jobs would. The book keeps each root's usage from
  // its last walk; a root is walked again only from the first entry a change touched (the owed
  // jobs from there on are taken back out of the book first), up to the point where nothing more
  // fits; a change behind that point changes nothing. Jobs that are not owed take the tier below
  // it that their own state gives.
  void walk_dirty_groups(const state::ClusterView& view) {
    for (uint32_t r : dirty_) {
      Group& g = groups_[r];
      g.dirty = false;
      LasEntry from = g.first;
      if (g.stopped && g.gang != min_gang_) {
        from = std::min(from, g.stop);  // a smaller gang may fit where the last walk stopped
      }
      if (g.stopped && g.stop < from) {
        continue;
      }
      walk_from(g, from, view);
    }
    for (JobId j : moved_) {
      if (in_order_[j.value()] && tier_[j.value()] != kOwed) {
        set_tier(j, below_owed(j, view));
      }
    }
  }

  void walk_from(Group& g, const LasEntry& from, const state::ClusterView& view) {
    const auto kept = std::lower_bound(g.owed.begin(), g.owed.end(), from);
    undone_.assign(kept, g.owed.end());
    g.owed.erase(kept, g.owed.end());
    for (const LasEntry& e : undone_) {
      book_->add(static_cast<uint32_t>(queue_[e.job.value()]), owed_demand_[e.job.value()], -1);
    }
    g.gang = min_gang_;
    g.stopped = full(g.root);
    g.stop = kBeforeAll;
    for (auto e = std::lower_bound(g.order.begin(), g.order.end(), from); !g.stopped && e != g.order.end();
         ++e) {
      const Demand& d = demand(*e);
      const auto q = static_cast<uint32_t>(queue_[e->job.value()]);
      if (!d.empty() && book_->within_guarantee(q, d)) {
        book_->add(q, d, +1);
        owed_demand_[e->job.value()] = d;
        owed_mark_[e->job.value()] = round_;
        g.owed.push_back(*e);
        set_tier(e->job, kOwed);
        g.stopped = full(g.root);
        g.stop = *e;
      }
    }
    for (const LasEntry& e : undone_) {
      if (owed_mark_[e.job.value()] != round_) {
        set_tier(e.job, below_owed(e.job, view));
      }
    }
  }

  // The plain path: each queue's jobs in LAS order fill its guarantee (skipping gangs that do not
  // fit); the waiting jobs whose tier changed are listed in changed_.
  void assign_tiers(const state::ClusterView& view) {
    book_->clear_usage();
    for (const LasEntry& e : order_) {
      const uint32_t i = e.job.value();
      const bool running = e.waiting == 0;
      const Demand& d = demand(e);
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
  std::vector<LasEntry> order_;                   // active jobs in LAS order (plain path)
  std::vector<Group> groups_;                     // by root queue (kept path)
  std::vector<uint32_t> dirty_;                   // roots to walk this round
  std::vector<LasEntry> undone_;                  // scratch: owed entries a walk takes back
  std::vector<Demand> owed_demand_;               // by job: what its owed entry added to the book
  std::vector<uint64_t> owed_mark_;               // by job: the round a walk found it owed
  std::vector<uint64_t> journal_mark_;            // by job: the round it was last in the journal
  uint32_t min_gang_ = std::numeric_limits<uint32_t>::max();
  uint32_t type_count_ = 0;
  std::vector<uint8_t> in_order_;  // by job: has a live entry in order_
  std::vector<LasEntry> keyed_;    // by job: its live entry
  std::vector<uint64_t> mark_;     // by job: the round it was noted in
  std::vector<JobId> moved_, changed_;
  size_t journal_seen_ = 0;
  uint64_t round_ = 0;
};

}  // namespace

std::unique_ptr<PriorityOrder> make_las_quota_order(ServiceOptions service, const TenancyOptions& tenancy,
                                                    bool kept) {
  return std::make_unique<LasQuotaOrder>(std::move(service), tenancy.queues, kept);
}

}  // namespace boreas::policy
