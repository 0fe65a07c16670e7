// The `boreas` policy's admission and preemption steps; the round itself is in boreas_policy.cpp.
#include <algorithm>

#include "policy/boreas_policy.h"
#include "policy/boreas_round.h"

namespace boreas::policy {

bool BoreasScheduler::must_not_borrow(JobId job, const state::ClusterView& view) const {
  const JobInfo& in = jobs_[job.value()];
  return view.record(job).preemptions >= options_.preemption.max_per_job || !view.spec(job).preemptible ||
         !in.class_preemptible;
}

// Borrowed capacity must stay reclaimable for guarantees to hold at every instant, so a job that
// may not be preempted (again, or ever) borrows only capacity no guarantee covers (pinned there),
// or guarantee of its own queue that running preemptible jobs of the queue give up (covered).
// Two exceptions keep every preemptible job live, borrowing reclaimably although at its cap (reclaim
// ignores the cap): a gang that could never fit inside its queue's guarantee, and a job that has
// waited `idle_wait_bound` in all while in-service GPUs it fits were free.
BoreasScheduler::Borrow BoreasScheduler::borrow_mode(Round& r, JobId job, const Demand& d) {
  if (!must_not_borrow(job, r.view)) {
    return Borrow::kReclaimable;
  }
  bool unguaranteed = true;
  for (const TypeCount& tc : d) {
    unguaranteed = unguaranteed && pinned_by_type_[tc.type.value()] + tc.gpus <= book_->unguaranteed(tc.type);
  }
  if (unguaranteed) {
    return Borrow::kPinned;
  }
  if (auto uncovering = uncover_for(r, job, d)) {
    r.uncovering = std::move(*uncovering);
    return Borrow::kCovered;
  }
  const JobInfo& in = jobs_[job.value()];
  const bool preemptible = r.view.spec(job).preemptible && in.class_preemptible;
  const bool starved = in.idle_wait >= options_.preemption.idle_wait_bound;
  return preemptible && (in.beyond_guarantee || starved) ? Borrow::kReclaimable : Borrow::kNo;
}

bool BoreasScheduler::try_start(Round& r, JobId job, uint32_t need, bool guaranteed_pass) {
  if (r.scratch.total_free() >= need) {
    if (auto gpus = place_recalled(*placement_, r.view.spec(job), r.scratch)) {
      Demand& d = start_demand_;  // kept for its capacity
      demand_into(*gpus, r.view, d);
      if (!admit_placed(r, job, d, guaranteed_pass)) {
        return false;
      }
      r.scratch.claim(*gpus);
      commit_start(r, job, std::move(*gpus), d);
      return true;
    }
  }
  no_fit(r, job, need);
  return options_.preemption.enabled && try_preempt(r, job, guaranteed_pass);
}

// Kept compact: most pending jobs get this reason every round (a ReasonBook makes the
// PendingReason: the queue's name, no GPU type, nothing guaranteed).
void BoreasScheduler::no_fit(Round& r, JobId job, uint32_t need) {
  const uint32_t q = static_cast<uint32_t>(jobs_[job.value()].queue);
  const uint32_t ahead = q < r.waiting.size() ? r.waiting[q] : 0;
  set_no_fit(job, no_fit_reason(q, need, ahead, r.scratch.total_free(), r.largest_block));
}

bool BoreasScheduler::admit_placed(Round& r, JobId job, const Demand& d, bool guaranteed_pass) {
  const uint32_t q = static_cast<uint32_t>(jobs_[job.value()].queue);
  const bool owed = book_->owed(q, d, *covered_);
  if (guaranteed_pass || owed) {
    r.admitted = Borrow::kNo;  // inside the guarantee: nothing borrowed
    if (!owed) {
      materialize_quiet(job);  // refused without a reason: it keeps its last one
    }
    return owed;
  }
  auto quota_reason = [&](const QuotaBlock& b) {
    PendingReason reason{b.lending ? PendingKind::kLendingLimit : PendingKind::kQuotaExceeded,
                         book_->name(b.queue), b.gpu_type, b.need, b.have, b.guaranteed, b.ceiling.value_or(0), 0};
    set_reason(job, std::move(reason));
    return false;
  };
  if (auto b = book_->check_ceiling(q, d)) {
    return quota_reason(*b);
  }
  r.uncovering.clear();
  r.admitted = borrow_mode(r, job, d);
  if (r.admitted == Borrow::kNo) {
    r.held_jobs.push_back(job);
    set_reason(job, PendingReason{PendingKind::kGuaranteeOnly, book_->name(q), "*", r.view.spec(job).gpus, 0,
                                  book_->unused_guarantees(), 0, 0});
    return false;
  }
  std::vector<uint64_t>& free_after = free_after_;  // kept for its capacity
  free_after = r.free_by_type;
  for (const TypeCount& tc : d) {
    free_after[tc.type.value()] -= std::min<uint64_t>(free_after[tc.type.value()], tc.gpus);
  }
  if (auto b = book_->check_lending(q, free_after)) {
    return quota_reason(*b);
  }
  return true;
}

void BoreasScheduler::commit_start(Round& r, JobId job, std::vector<GpuId> gpus, const Demand& d) {
  materialize_quiet(job);  // its last reason leaves the shared set with it
  r.generation += 1;
  JobInfo& in = jobs_[job.value()];
  const uint32_t q = static_cast<uint32_t>(in.queue);
  const bool covered = r.admitted == Borrow::kCovered;
  in.borrowed = !covered && !book_->owed(q, d, *covered_);
  in.pinned = in.borrowed && r.admitted == Borrow::kPinned;
  for (JobId v : covered ? r.uncovering : std::vector<JobId>{}) {
    uncover(r, v);
  }
  count(job, d);
  for (const TypeCount& tc : d) {
    r.free_by_type[tc.type.value()] -= std::min<uint64_t>(r.free_by_type[tc.type.value()], tc.gpus);
  }
  in.started_round = round_;
  if (in.rank_pos < r.ranked.size() && r.ranked[in.rank_pos] == job) {
    r.gangs[in.rank_pos].started = true;
  }
  r.plan.starts.push_back(Start{job, std::move(gpus)});
}

void BoreasScheduler::evict(Round& r, JobId victim, int32_t sign) {
  r.generation += 1;
  r.widened += 1;
  const Demand& d = held_demand(victim, r.view);
  if (sign > 0) {
    uncount(victim);
  } else {
    count(victim, d);
  }
  for (const TypeCount& tc : d) {
    uint64_t& free = r.free_by_type[tc.type.value()];
    free = sign > 0 ? free + tc.gpus : free - std::min<uint64_t>(free, tc.gpus);
  }
  if (sign > 0) {
    r.evicted.insert(victim.value());
  } else {
    r.evicted.erase(victim.value());
  }
}

std::vector<JobId> BoreasScheduler::own_queue_victims(Round& r, JobId job) {
  const auto& view = r.view;
  const JobInfo& me = jobs_[job.value()];
  std::vector<JobId> out;
  const auto q = static_cast<size_t>(me.queue);
  if (q >= r.lowest_preemptible_class.size() || r.lowest_preemptible_class[q] >= me.class_value) {
    return out;  // nothing running in its queue sits in a lower, preemptible class
  }
  for (JobId v : running_in(r, static_cast<uint32_t>(me.queue))) {
    const JobInfo& vi = jobs_[v.value()];
    if (vi.class_value >= me.class_value || !vi.class_preemptible || r.evicted.count(v.value()) > 0) {
      continue;
    }
    if (guard_.priority_victim_ok(v, job, view)) {
      out.push_back(v);
    } else if (view.now() - view.record(v).last_start < options_.preemption.min_runtime) {
      const Time ready = view.record(v).last_start + options_.preemption.min_runtime;
      r.plan.wake_at = r.plan.wake_at ? std::min(*r.plan.wake_at, ready) : ready;
    }
  }
  return out;
}

std::vector<JobId> BoreasScheduler::borrower_victims(Round& r, JobId job) {
  const auto& view = r.view;
  const auto mine = static_cast<uint32_t>(jobs_[job.value()].queue);
  std::vector<JobId> out;
  for (uint32_t q = 0; q < book_->queue_count(); ++q) {
    // A queue under its guarantees lends nothing: none of its jobs passes borrowing() below.
    if (q == mine || (shortcuts_ && !book_->borrowing_any(q, mine))) {
      continue;
    }
    for (JobId v : running_in(r, q)) {
      const JobInfo& vi = jobs_[v.value()];
      if (r.evicted.count(v.value()) == 0 && vi.borrowed && !vi.pinned && view.spec(v).preemptible &&
          vi.class_preemptible &&
          book_->borrowing(q, held_demand(v, view), mine)) {
        out.push_back(v);
      }
    }
  }
  return out;
}

// Victims must stay beyond their queue's guarantee, or they would be owed it right back: for each
// queue, used − evicted (+ the claimant's need when it is the claimant's queue) + the smallest
// victim (this eviction's or an earlier one's this round) > guarantee. So reclaim takes a queue
// down to its guarantee, never below. As a VictimFilter (operator()) and growing one victim at a
// time (GrowingVictimFilter: the chosen set's GPUs and smallest gang kept by queue).
class BoreasScheduler::ReclaimFilter final : public GrowingVictimFilter {
 public:
  ReclaimFilter(BoreasScheduler& s, Round& r, JobId job)
      : s_(s), r_(r), mine_(s.jobs_[job.value()].queue), need_(r.view.spec(job).gpus) {
    // The smallest gang evicted earlier this round (already out of `used`), by queue + 1 (a queue
    // not seen yet is -1); read once, not per candidate.
    for (uint32_t v : r.evicted) {
      const auto at = static_cast<size_t>(s.jobs_[v].queue + 1);
      smallest_evicted_.resize(std::max(smallest_evicted_.size(), at + 1), UINT64_MAX);
      smallest_evicted_[at] = std::min<uint64_t>(smallest_evicted_[at], r.view.spec(JobId(v)).gpus);
    }
  }
  bool operator()(const std::vector<JobId>& chosen, JobId c) {
    const int32_t q = s_.jobs_[c.value()].queue;
    uint64_t taken = 0;
    uint64_t smallest = UINT64_MAX;
    for (JobId v : chosen) {
      if (s_.jobs_[v.value()].queue == q) {
        taken += r_.view.spec(v).gpus;
        smallest = std::min<uint64_t>(smallest, r_.view.spec(v).gpus);
      }
    }
    return admits_beside(c, taken, smallest);
  }
  void restart() override {
    taken_.assign(s_.book_->queue_count() + 1, 0);
    smallest_.assign(taken_.size(), UINT64_MAX);
  }
  bool admits(JobId c) override {
    const auto at = static_cast<size_t>(s_.jobs_[c.value()].queue + 1);
    return at < taken_.size() ? admits_beside(c, taken_[at], smallest_[at]) : admits_beside(c, 0, UINT64_MAX);
  }
  void join(JobId v) override {
    const auto at = static_cast<size_t>(s_.jobs_[v.value()].queue + 1);
    if (at >= taken_.size()) {
      taken_.resize(at + 1, 0);
      smallest_.resize(at + 1, UINT64_MAX);
    }
    taken_[at] += r_.view.spec(v).gpus;
    smallest_[at] = std::min<uint64_t>(smallest_[at], r_.view.spec(v).gpus);
  }

 private:
  // Whether c may join a chosen set that takes `taken` GPUs of c's queue, `smallest` its smallest.
  bool admits_beside(JobId c, uint64_t taken, uint64_t smallest) {
    const int32_t q = s_.jobs_[c.value()].queue;
    const Demand& d = s_.held_demand(c, r_.view);
    if (d.empty()) {
      return false;
    }
    const uint64_t gpus = r_.view.spec(c).gpus;
    taken += gpus;
    smallest = std::min(smallest, gpus);
    if (static_cast<size_t>(q + 1) < smallest_evicted_.size()) {
      smallest = std::min(smallest, smallest_evicted_[static_cast<size_t>(q + 1)]);
    }
    const uint64_t used = s_.book_->usage(static_cast<uint32_t>(q), d.front().type);
    const uint64_t guaranteed = s_.book_->guaranteed(static_cast<uint32_t>(q), d.front().type);
    return used + (q == mine_ ? need_ : 0) + smallest > taken + guaranteed;
  }

  BoreasScheduler& s_;
  Round& r_;
  int32_t mine_;
  uint64_t need_;
  std::vector<uint64_t> smallest_evicted_;
  std::vector<uint64_t> taken_, smallest_;  // the joined set's, by queue + 1
};

// A job its queue's guarantee covers takes GPUs back from borrowers only: evicting work of its
// own queue would leave the evicted job owed the same guarantee. A job beyond the guarantee may
// evict lower classes of its own queue (they are then beyond it too, so nothing owed is lost).
bool BoreasScheduler::try_preempt(Round& r, JobId job, bool guaranteed_pass) {
  if (guaranteed_pass && reclaim_failed_before(r, job)) {
    return false;  // the same search, on the same candidates, failed earlier this round
  }
  if (guaranteed_pass && shortcuts_) {
    return try_reclaim(r, job);
  }
  return try_evict(r, job, guaranteed_pass ? borrower_victims(r, job) : own_queue_victims(r, job),
                   guaranteed_pass);
}

// As try_evict on borrower_victims, with the candidates in loss order kept while the generation
// stands: borrower_victims and the filter admitting a candidate alone read the claimant's queue,
// the evicted set, the jobs' borrowed flags and the books, which only starts, evictions and
// uncovers move (each bumps the generation), and the round's view; the claimant's size only for a
// candidate of its own queue, which borrower_victims never gives.
bool BoreasScheduler::try_reclaim(Round& r, JobId job) {
  const int32_t q = jobs_[job.value()].queue;
  std::erase_if(r.reclaim_orders, [&](const Round::ReclaimOrder& o) { return o.generation != r.generation; });
  auto it = std::find_if(r.reclaim_orders.begin(), r.reclaim_orders.end(),
                         [&](const Round::ReclaimOrder& o) { return o.queue == q; });
  if (it == r.reclaim_orders.end()) {
    std::vector<JobId> cands = borrower_victims(r, job);
    Round::ReclaimOrder order{q, r.generation, !cands.empty(), {}};
    if (order.any) {
      ReclaimFilter filter(*this, r, job);
      const VictimFilter may_add = [&filter](const std::vector<JobId>& chosen, JobId c) { return filter(chosen, c); };
      order.ordered = victims_in_loss_order(std::move(cands), r.view, may_add, &filter);
    }
    r.reclaim_orders.push_back(std::move(order));
    it = r.reclaim_orders.end() - 1;
  }
  if (!it->any) {
    remember_failed_reclaim(r, job);  // no borrower to reclaim from: the same as long as nothing moves
    return false;
  }
  if (r.victims_left == 0) {
    refuse_at_cap(r, job);
    return false;
  }
  return evict_in_order(r, job, it->ordered, true);  // nothing there changes r.reclaim_orders
}

void BoreasScheduler::refuse_at_cap(Round& r, JobId job) {
  set_reason(job, PendingReason{PendingKind::kPreemptionCap, book_->name(jobs_[job.value()].queue), "*",
                                r.view.spec(job).gpus, 0, 0, 0, 0});
}

BoreasScheduler::FailedReclaim BoreasScheduler::reclaim_key(const JobSpec& spec, uint32_t queue, uint64_t generation) {
  return {queue, spec.gpus, spec.gpu_types.index(), spec.preemptible, generation};
}

bool BoreasScheduler::reclaim_failed_before(const Round& r, JobId job) const {
  const FailedReclaim key =
      reclaim_key(r.view.spec(job), static_cast<uint32_t>(jobs_[job.value()].queue), r.generation);
  return std::any_of(r.failed_reclaims.begin(), r.failed_reclaims.end(), [&](const FailedReclaim& f) {
    return f.queue == key.queue && f.gpus == key.gpus && f.gpu_types == key.gpu_types &&
           f.preemptible == key.preemptible && f.generation == key.generation;
  });
}

void BoreasScheduler::remember_failed_reclaim(Round& r, JobId job) {
  std::erase_if(r.failed_reclaims, [&](const FailedReclaim& f) { return f.generation != r.generation; });
  r.failed_reclaims.push_back(
      reclaim_key(r.view.spec(job), static_cast<uint32_t>(jobs_[job.value()].queue), r.generation));
}

bool BoreasScheduler::try_evict(Round& r, JobId job, std::vector<JobId> cands, bool guaranteed_pass) {
  if (cands.empty()) {
    if (guaranteed_pass && shortcuts_) {
      remember_failed_reclaim(r, job);  // no borrower to reclaim from: the same as long as nothing moves
    }
    return false;
  }
  if (r.victims_left == 0) {
    refuse_at_cap(r, job);
    return false;
  }
  ReclaimFilter filter(*this, r, job);
  const VictimFilter may_add = [&filter](const std::vector<JobId>& chosen, JobId c) { return filter(chosen, c); };
  GrowingVictimFilter* growing = shortcuts_ ? &filter : nullptr;
  return evict_in_order(r, job, victims_in_loss_order(std::move(cands), r.view, may_add, growing), guaranteed_pass);
}

// Evicts the victims choose_victims_in_order finds among `ordered` and starts the job on their GPUs.
bool BoreasScheduler::evict_in_order(Round& r, JobId job, const std::vector<JobId>& ordered, bool guaranteed_pass) {
  ReclaimFilter filter(*this, r, job);
  const VictimFilter may_add = [&filter](const std::vector<JobId>& chosen, JobId c) { return filter(chosen, c); };
  auto ev = choose_victims_in_order(r.view.spec(job), ordered, r.victims_left, *placement_, r.scratch, may_add,
                                    monotone_placement_, shortcuts_ ? &filter : nullptr);
  if (!ev) {
    if (guaranteed_pass && monotone_placement_) {
      remember_failed_reclaim(r, job);
    }
    return false;
  }
  for (JobId v : ev->victims) {
    evict(r, v, +1);
  }
  Demand& d = evict_demand_;  // kept for its capacity
  demand_into(ev->gpus, r.view, d);
  if (!admit_placed(r, job, d, guaranteed_pass)) {
    r.scratch.release(ev->gpus);
    for (JobId v : ev->victims) {
      evict(r, v, -1);
      r.scratch.claim(r.view.record(v).gpus);
    }
    return false;
  }
  for (JobId v : ev->victims) {
    guard_.record(v, job, r.view.now());
    r.plan.preemptions.push_back(v);
  }
  r.victims_left -= static_cast<uint32_t>(ev->victims.size());
  commit_start(r, job, std::move(ev->gpus), d);
  return true;
}

std::unique_ptr<Scheduler> make_boreas_scheduler(TenancyOptions options, std::unique_ptr<Placement> placement) {
  return std::make_unique<BoreasScheduler>(std::move(options), std::move(placement));
}

}  // namespace boreas::policy
