// The `boreas` policy's wait bound for jobs that may not be preempted again (docs/multitenancy.md,
// "Cap per job"): such a job starts inside its queue's guarantee by taking over the cover of
// running preemptible jobs of its queue, which become reclaimable borrowers; and a job that has
// waited `idle_wait_bound` in all while GPUs it fits were free borrows reclaimably anyway.
#include <algorithm>

#include "policy/boreas_policy.h"
#include "policy/boreas_round.h"

namespace boreas::policy {

// Jobs of the claimant's own queue may give up their cover when they are covered, may still be
// preempted (preemptible, below the cap) and sit in no higher class than the claimant.
std::optional<std::vector<JobId>> BoreasScheduler::uncover_for(Round& r, JobId job, const Demand& d) {
  const JobInfo& me = jobs_[job.value()];
  const auto q = static_cast<uint32_t>(me.queue);
  if (covered_->within_guarantee(q, d)) {
    return std::vector<JobId>{};
  }
  const auto& view = r.view;
  std::vector<JobId> cands;
  for (JobId v : running_in(r, q)) {
    const JobInfo& vi = jobs_[v.value()];
    if (!vi.borrowed && r.evicted.count(v.value()) == 0 && view.spec(v).preemptible && vi.class_preemptible &&
        view.record(v).preemptions < options_.preemption.max_per_job && vi.class_value <= me.class_value) {
      cands.push_back(v);
    }
  }
  // Lowest class first, then the most recently started (the least work lost if reclaimed later).
  std::sort(cands.begin(), cands.end(), [&](JobId a, JobId b) {
    const JobInfo &ia = jobs_[a.value()], &ib = jobs_[b.value()];
    if (ia.class_value != ib.class_value) {
      return ia.class_value < ib.class_value;
    }
    const Time sa = view.record(a).last_start, sb = view.record(b).last_start;
    return sa != sb ? sa > sb : a.value() > b.value();
  });
  std::vector<JobId> chosen;
  for (size_t i = 0; i < cands.size() && !covered_->within_guarantee(q, d); ++i) {
    covered_->add(q, held_demand(cands[i], view), -1);
    chosen.push_back(cands[i]);
  }
  const bool enough = covered_->within_guarantee(q, d);
  for (JobId v : chosen) {
    covered_->add(q, held_demand(v, view), +1);
  }
  return enough ? std::optional(std::move(chosen)) : std::nullopt;
}

void BoreasScheduler::uncover(Round& r, JobId job) {
  r.generation += 1;
  r.widened += 1;
  JobInfo& in = jobs_[job.value()];
  covered_->add(static_cast<uint32_t>(in.queue), held_demand(job, r.view), -1);
  in.borrowed = true;
  counted_[job.value()].covered = false;
}

void BoreasScheduler::count_idle_wait(JobId job, Time now) {
  JobInfo& in = jobs_[job.value()];
  if (!in.held_at.is_never()) {
    in.idle_wait += now - in.held_at;
    in.held_at = Time::never();
  }
}

// A job refused `guarantee-only` while GPUs it fits stay free after the plan waits idle until the
// next round; the policy asks to be woken when that wait reaches the bound.
void BoreasScheduler::mark_held(Round& r) {
  const auto& view = r.view;
  std::erase_if(idle_held_, [&](JobId j) { return jobs_[j.value()].held_at.is_never(); });
  for (JobId j : r.held_jobs) {
    JobInfo& in = jobs_[j.value()];
    const JobSpec& spec = view.spec(j);
    if (in.started_round == round_ || in.held_at == view.now()) {
      continue;
    }
    uint64_t free = 0;
    for (GpuTypeId t : types_.allowed(spec, view)) {
      free += r.free_by_type[t.value()];
    }
    if (free < spec.gpus) {
      continue;
    }
    in.held_at = view.now();
    idle_held_.push_back(j);
    const Duration bound = options_.preemption.idle_wait_bound;
    if (spec.preemptible && in.class_preemptible && in.idle_wait < bound && bound != Duration::infinite()) {
      const Time due = view.now() + (bound - in.idle_wait);
      r.plan.wake_at = r.plan.wake_at ? std::min(*r.plan.wake_at, due) : due;
    }
  }
}

}  // namespace boreas::policy
