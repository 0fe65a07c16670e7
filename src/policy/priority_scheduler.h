#pragma once
// Preemptive priority policies (srtf, srtf-gpu, las, gittins) share one round: order every active
// job (running and pending) by the policy's key, walk that order granting each job whose gang
// still fits in the cluster's GPUs, and preempt running jobs that no longer fit (Tiresias'
// semantics). Only the order differs, so it is a part.

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>

#include "policy/kept_above.h"
#include "policy/placement.h"
#include "policy/ranked_job.h"
#include "policy/scheduler.h"

namespace boreas::policy {

// The queue-order part of a preemptive policy.
class PriorityOrder {
 public:
  virtual ~PriorityOrder() = default;
  // Once per round, before keys are read: update per-job bookkeeping (levels, learned data) for
  // the jobs that will be ranked — only the pending ones when `pending_only`.
  virtual void prepare(const state::ClusterView& view, bool pending_only) {
    (void)view;
    (void)pending_only;
  }
  virtual SortKey key(JobId job, const state::ClusterView& view) = 0;
  // Every item's key (the running jobs a round keys): items[i].key = key(items[i].job). KeyedOrder
  // overrides it with one loop over its own key(), not a virtual call per job.
  virtual void rekey(std::span<RankedJob> items, const state::ClusterView& view) {
    for (RankedJob& r : items) {
      r.key = key(r.job, view);
    }
  }
  // Keys of pending jobs stay fixed while they wait (they receive no service), so the scheduler
  // keeps them sorted across rounds. An order whose pending keys do change (a learned distribution
  // was updated, a starvation promotion) bumps this number and all pending jobs are re-keyed.
  virtual uint64_t pending_key_epoch() const { return 0; }
  // True when a running job's key changes only when listed by changed_keys() after prepare()
  // (LAS: on demotion); the scheduler then keeps running jobs sorted too instead of re-sorting.
  virtual bool running_keys_stable() const { return false; }
  virtual std::span<const JobId> changed_keys() const { return {}; }
  // True when running keys cross often enough that sorting only the running jobs below the first
  // grant (PriorityScheduler::decide_lazily) beats settling them all (gittins; srtf's keys move
  // together, and the extra pass cost it 3–5%).
  virtual bool sort_below_grants() const { return false; }
  // A running job's (key, job) stays at or below (bound, job) while a round's time is before `until`
  // (and bound_epoch() does not move); only asked of jobs ranked before `bar`, the first waiting
  // job, in the round that just keyed them. nullopt: no such bound (the job is ranked every round).
  struct RankBound {
    SortKey bound;
    Time until;
  };
  virtual std::optional<RankBound> rank_bound(JobId job, const RankedJob& bar, const state::ClusterView& view) {
    (void)job;
    (void)bar;
    (void)view;
    return std::nullopt;
  }
  // Moves when every bound rank_bound() gave may be void (gittins: a table refresh).
  virtual uint64_t bound_epoch() const { return 0; }
  // When the order may change without any arrival or completion (e.g. a demotion) among the jobs
  // that run once this round's plan is applied.
  virtual std::optional<Time> wake_at(const state::ClusterView&, const Plan&) { return std::nullopt; }
};

// Base of an order whose key() is final: rekey() calls its key_for(item, view) directly (inlined),
// which matters for the orders that re-key every running job in every full round (srtf, gittins).
// key_for(r, view) == key(r.job, view), with the gang size taken from the item, not the job spec.
template <typename Order>
class KeyedOrder : public PriorityOrder {
 public:
  void rekey(std::span<RankedJob> items, const state::ClusterView& view) final {
    Order& self = static_cast<Order&>(*this);
    for (RankedJob& r : items) {
      r.key = self.Order::key_for(r, view);
    }
  }
};

class PriorityScheduler final : public Scheduler {
 public:
  // `max_preemptions` > 0: a running job preempted that many times is kept like a non-preemptible one.
  // `sort_all`: rank every running job in every full round (the plain walk, which the
  // property test compares with the default lazy one; see decide_lazily).
  PriorityScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                    std::unique_ptr<Placement> placement, std::unique_ptr<Admission> admission,
                    uint32_t max_preemptions = 0, bool sort_all = false);

  std::string_view name() const override { return name_; }
  std::string_view placement_name() const override { return placement_->name(); }
  Plan schedule(const state::ClusterView& view) override;

  // Public for their property test (tests/priority_ranked_test.cpp).
  using Ranked = RankedJob;
  // Running jobs in rank order: a flat sorted vector walked contiguously. Erasing leaves a stale
  // entry and inserting appends to `added_`; items() drops the one and merges the other once per
  // round, so a start or stop no longer moves every entry behind it (O(running) each).
  class FlatRanked {
   public:
    void resize(size_t jobs);
    void clear();
    void erase(JobId job);
    void insert(JobId job, SortKey key, uint32_t gpus);
    const std::vector<Ranked>& items();

   private:
    bool live(const Ranked& r) const { return in_[r.job.value()] && key_[r.job.value()] == r.key; }
    std::vector<Ranked> items_;  // sorted; may hold stale entries until items()
    std::vector<Ranked> added_;  // inserted since the last items()
    bool dirty_ = false;
    std::vector<SortKey> key_;  // by job, valid while in_
    std::vector<uint8_t> in_;
  };

  // Running jobs in rank order when their keys move every round (srtf, gittins): the last round's
  // order, re-keyed, is nearly sorted — keys move with service, mostly together — so an insertion
  // sort from it costs O(running + pairs that crossed) instead of a full sort. Exact: (key, job) is
  // a strict order, so every sort gives the same result.
  class RunningOrder {
   public:
    // `journal` lists every job whose state changed, appended to since the last call (the state's
    // journal, whole); `running(job)` tells whether a job runs now and `gpus(job)` its gang size.
    // `rekey(items)` sets the key of every running job (in last round's order, the new ones last).
    template <typename Running, typename Gpus, typename Rekey>
    const std::vector<Ranked>& rank(std::span<const JobId> journal, size_t jobs, Running&& running, Gpus&& gpus,
                                    Rekey&& rekey) {
      settle(keyed(journal, jobs, std::forward<Running>(running), std::forward<Gpus>(gpus),
                   std::forward<Rekey>(rekey)));
      return items_;
    }
    // The same jobs keyed but not yet sorted: in last round's order, which the caller may permute
    // (a part it settles stays nearly sorted for the next round).
    // With `held`: the running jobs it let go since the last call that a lazy round left out join
    // the items again.
    template <typename Running, typename Gpus, typename Rekey>
    std::span<Ranked> keyed(std::span<const JobId> journal, size_t jobs, Running&& running, Gpus&& gpus,
                            Rekey&& rekey, KeptAbove* held = nullptr) {
      carry_over(journal, jobs, running, gpus, held);
      rekey(std::span<Ranked>(items_));
      return items_;
    }
    // A lazy round's items: every running job but the held ones whose bound ranks before
    // `bars.second` (a suffix of held.by_bound()), keyed, in last round's order; the ones not listed
    // last round (let go, or in last round's suffix) last. `skipped` takes the suffix's GPUs and the
    // part of it whose bounds rank before `bars.second` only.
    struct Skipped {
      uint64_t gpus = 0;               // GPUs of the jobs skipped against either bar
      std::span<const Ranked> second;  // those skipped against the second only, the last ranked first
    };
    template <typename Running, typename Gpus, typename Rekey>
    std::span<Ranked> keyed_apart(std::span<const JobId> journal, size_t jobs, Running&& running, Gpus&& gpus,
                                  Rekey&& rekey, KeptAbove& held, const KeptAbove::SkipBars& bars,
                                  Skipped& skipped) {
      carry_over(journal, jobs, running, gpus, &held);
      size_t kept = 0;
      for (const Ranked& at : std::span<const Ranked>(items_)) {
        Ranked r = at;
        if (!held.skips(r.job, bars, r.key)) {
          items_[kept++] = r;
        } else {
          listed_[r.job.value()] = 0;  // left out this round
        }
      }
      items_.resize(kept);
      const std::span<const Ranked> by_bound = held.by_bound();
      const auto seconds = std::partition_point(by_bound.begin(), by_bound.end(),
                                                [&](const Ranked& r) { return !(r < bars.second); });
      const auto firsts = std::partition_point(seconds, by_bound.end(),
                                               [&](const Ranked& r) { return !(r < bars.first); });
      uint64_t keyed_gpus = 0;
      for (auto r = by_bound.begin(); r != seconds; ++r) {
        keyed_gpus += r->gpus;
        if (listed_[r->job.value()] == 0) {
          listed_[r->job.value()] = 1;
          items_.push_back(*r);
        }
      }
      skipped = Skipped{held.gpus() - keyed_gpus, {seconds, firsts}};
      rekey(std::span<Ranked>(items_));
      return items_;
    }
    // Adds a job to this round's items (a lazy round keying a skipped job); the items' span moves.
    std::span<Ranked> add(const Ranked& r) {
      items_.push_back(r);
      listed_[r.job.value()] = 1;
      return items_;
    }
    // Sorts `items` by (key, job): an insertion sort for the items near their place, the few far
    // from it sorted aside and merged in.
    void settle(std::span<Ranked> items);

   private:
    // Keeps the jobs still running in last round's order and appends the ones started since: only
    // the journal's new entries are read, and the items are filtered only when one of them left.
    // With `held`: also takes back the running jobs it let go that are not listed.
    template <typename Running, typename Gpus>
    void carry_over(std::span<const JobId> journal, size_t jobs, Running& running, Gpus& gpus, KeptAbove* held) {
      if (in_.size() < jobs) {
        in_.resize(jobs, 0);
        listed_.resize(jobs, 0);
      }
      bool left = false;
      for (; seen_ < journal.size(); ++seen_) {
        const JobId j = journal[seen_];
        const uint8_t runs = running(j) ? 1 : 0;
        if (runs == in_[j.value()]) {
          continue;  // listed again, or stopped and started again: it keeps its place
        }
        in_[j.value()] = runs;
        if (runs) {
          items_.push_back(Ranked{SortKey{}, j, gpus(j)});
          listed_[j.value()] = 1;
        } else {
          left = true;
        }
      }
      if (left) {
        std::erase_if(items_, [&](const Ranked& r) {
          const bool drop = in_[r.job.value()] == 0;
          listed_[r.job.value()] = drop ? 0 : 1;
          return drop;
        });
      }
      if (held != nullptr) {
        for (JobId j : held->released()) {
          if (in_[j.value()] != 0 && listed_[j.value()] == 0) {
            items_.push_back(Ranked{SortKey{}, j, gpus(j)});
            listed_[j.value()] = 1;
          }
        }
        held->forget_released();
      }
    }
    std::vector<Ranked> items_;  // the last round's order, then this round's
    std::vector<uint8_t> in_;    // by job: runs (as the journal read so far says)
    std::vector<uint8_t> listed_;  // by job: in items_
    std::vector<Ranked> aside_;  // settle's items far from their place
    size_t seen_ = 0;            // journal entries read
  };

 private:
  void learn_jobs(const state::ClusterView& view);
  void sync_pending(const state::ClusterView& view);
  void rekey_pending(const state::ClusterView& view);
  void sync_job(JobId job, const state::ClusterView& view);
  void decide(const state::ClusterView& view, Plan& plan);
  using PendingIt = std::set<Ranked>::const_iterator;
  void walk(const state::ClusterView& view, std::span<const Ranked> running, PendingIt p, uint64_t budget,
            Plan& plan);
  size_t split_at(const Ranked& p, std::span<Ranked> running, uint64_t& held, uint64_t& before_gpus,
                  const Ranked& second, uint64_t& after_second);
  bool decide_lazily(const state::ClusterView& view, std::span<Ranked> running, uint64_t budget, Plan& plan);
  void hold_above(const state::ClusterView& view, std::span<const Ranked> before, const Ranked& bar);
  std::span<Ranked> rekey_running(const state::ClusterView& view, bool lazy);
  struct SkipBars {
    KeptAbove::SkipBars bars;
    uint64_t squeeze;  // GPUs the running jobs after bars.second must hold; 0: second == first
  };
  SkipBars skip_bars(const state::ClusterView& view) const;
  uint64_t key_seconds(const state::ClusterView& view, std::span<Ranked>& running, size_t before, uint64_t after_second);  // GPUs keyed
  void consider(const Ranked& p, uint64_t& budget);
  void consider_running(const Ranked& r, uint64_t& budget, const state::ClusterView& view, Plan& plan);
  void place_granted(const state::ClusterView& view, Plan& plan);
  bool kept_running(JobId job, const state::ClusterView& view) const;
  std::optional<Time> wake_at(const state::ClusterView& view, const Plan& plan);

  std::string name_;
  std::unique_ptr<PriorityOrder> order_;
  std::unique_ptr<Placement> placement_;
  std::unique_ptr<Admission> admission_;
  uint32_t max_preemptions_ = 0;
  bool sort_all_ = false;
  uint32_t min_gpus_ = 1;  // this round's smallest waiting gang (at least 1)
  bool some_kept_ = false;  // some running job may be kept whatever its rank (kept_running)
  // Jobs in rank order with their keys and gang sizes, kept across rounds from the state's journal.
  // Also counts the jobs per gang size, so the walk can stop once no waiting gang fits in the
  // budget left.
  class RankedSet {
   public:
    void resize(size_t jobs);
    void clear();
    void erase(JobId job);
    void insert(JobId job, SortKey key, uint32_t gpus);
    const std::set<Ranked>& set() const { return set_; }
    // Smallest gang among the jobs in the set (UINT32_MAX when empty).
    uint32_t min_gpus() const;

   private:
    std::set<Ranked> set_;
    std::map<uint32_t, uint32_t> by_gpus_;  // gang size -> jobs in set_
    std::vector<SortKey> key_;              // by job, valid while in set_
    std::vector<uint8_t> in_;
  };
  RankedSet pending_;
  FlatRanked running_set_;  // only for orders with running_keys_stable()
  size_t journal_seen_ = 0;
  uint64_t epoch_ = 0;
  RunningOrder running_;  // re-ranked every full round: running keys move with service
  RunningOrder::Skipped skipped_;  // this lazy round's held jobs left out of running_'s items
  std::vector<JobId> grant_;     // pending jobs this round's walk admits
  Scratch::Storage scratch_kept_;  // place_granted's scratch storage, kept between rounds
  std::vector<Ranked> below_;    // decide_lazily's scratch: running jobs ranked below a waiting one
  KeptAbove above_;              // running jobs left out of the lazy walk's arrays (kept_above.h)
  Ranked second_{};              // this lazy round's second bar (skip_bars), and the GPUs the running
  uint64_t squeeze_ = 0;         // jobs after it must hold for its skips to stand (0: no second bar)
  bool seconds_skipped_ = false;  // some job may have been skipped against second_ (kSecond)
  std::vector<Ranked> between_;   // key_seconds' scratch: the keyed jobs ranked between the first waiting job and the second bar
  Ranked last_second_{};         // the last lazy round's second bar, and the GPUs of the running jobs
  uint64_t last_after_ = 0;      // ranked after it
  size_t learned_ = 0;               // jobs learn_jobs has read
  bool some_unpreemptible_ = false;  // some job read so far is not preemptible
};

// Oracle orders (they read true remaining work): lower bounds, not deployable policies.
std::unique_ptr<PriorityOrder> make_srtf_order();      // remaining time
std::unique_ptr<PriorityOrder> make_srtf_gpu_order();  // remaining time × GPUs

}  // namespace boreas::policy
