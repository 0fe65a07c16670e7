#pragma once
// One round of the `boreas` policy: private to boreas_policy.cpp and boreas_admit.cpp.

#include <algorithm>
#include <functional>
#include <queue>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "policy/boreas_policy.h"

namespace boreas::policy {

struct BoreasScheduler::Round {
  Round(const state::ClusterView& v, uint32_t victims, Scratch::Storage&& kept)
      : view(v), scratch(v, std::move(kept)), victims_left(victims) {}
  const state::ClusterView& view;
  Scratch scratch;
  Plan plan;
  std::vector<JobId> ranked;
  std::vector<RankedGang> gangs;  // by rank, beside `ranked`
  std::unordered_set<uint32_t> evicted;
  std::vector<uint64_t> free_by_type;                // after this round's plan so far
  // at the round's start, in the state's order; built when a victim search first asks (running_in)
  std::vector<std::vector<JobId>> running_by_queue;
  bool running_built = false;
  // queue -> lowest class value of its running jobs whose class may be preempted (INT32_MAX: none),
  // so a job that no class of its queue sits below skips the victim search
  std::vector<int32_t> lowest_preemptible_class;
  std::vector<uint32_t> waiting;                     // queue -> higher-ranked jobs left pending
  std::vector<JobId> held_jobs;                      // refused `guarantee-only` this round
  Borrow admitted = Borrow::kNo;                     // how the last gang admit_placed let in starts
  std::vector<JobId> uncovering;                     // the running jobs that give it their cover
  uint32_t victims_left = 0;
  uint32_t largest_block = 0;  // most free GPUs on one node at the round's start
  // Reclaim searches that failed, kept while nothing they read changed (boreas_admit.cpp).
  std::vector<FailedReclaim> failed_reclaims;
  uint64_t generation = 0;  // bumped by every start, eviction and uncover this round
  // A reclaim's candidates as of a generation, by claimant queue (boreas_admit.cpp, reclaim_order):
  // whether it had any (borrower_victims), and those its filter admits alone, in loss order.
  struct ReclaimOrder {
    int32_t queue = -1;
    uint64_t generation = 0;
    bool any = false;
    std::vector<JobId> ordered;
  };
  std::vector<ReclaimOrder> reclaim_orders;
  // Queues with a waiting gang `owed` may hold, as of `widened` and the books' versions
  // (boreas_quiet.cpp, may_owe); `owe_any`: one of them does.
  std::vector<uint8_t> may_owe;
  uint64_t may_owe_at = UINT64_MAX;
  uint64_t may_owe_books = UINT64_MAX;
  bool owe_any = true;
  uint64_t widened = 0;  // bumped by every eviction (or its undoing) and uncover: owed may grow
  // The ranking, made as the passes walk it (boreas_rank.cpp): the groups in (class, share) order,
  // each tie set's groups merged by (attained, id).
  std::vector<uint32_t> rank_groups;
  std::vector<uint32_t> tie_end;  // by position in rank_groups: where its tie set ends
  size_t next_tie = 0;
  std::vector<uint32_t> emitted;  // by group: its jobs ranked so far
  uint32_t single = UINT32_MAX;   // the current tie set, when it is one group
  using Head = std::tuple<int64_t, uint32_t, uint32_t, uint32_t>;  // (attained, id, group, position)
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;  // the current tie set's, otherwise
  // The free GPUs, `widened` and the books' versions when rest_cannot_start last answered no.
  uint64_t stop_free = UINT64_MAX;
  uint64_t stop_widened = UINT64_MAX;
  uint64_t stop_books = UINT64_MAX;
};

inline bool same_demand(const Demand& a, const Demand& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const TypeCount& x, const TypeCount& y) { return x.type == y.type && x.gpus == y.gpus; });
}

}  // namespace boreas::policy
