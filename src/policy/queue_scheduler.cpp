#include "policy/queue_scheduler.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace boreas::policy {

QueueScheduler::QueueScheduler(std::string name, Blocking blocking, std::unique_ptr<Placement> placement,
                               std::unique_ptr<Admission> admission, double time_limit_factor)
    : name_(std::move(name)),
      blocking_(blocking),
      placement_(std::move(placement)),
      admission_(std::move(admission)),
      time_limit_factor_(time_limit_factor) {}

bool QueueScheduler::try_start(JobId job, Scratch& scratch, Plan& plan) {
  auto gpus = placement_->place(scratch.view().spec(job), scratch);
  if (!gpus) {
    return false;
  }
  scratch.claim(*gpus);
  plan.starts.push_back(Start{job, std::move(*gpus)});
  return true;
}

// One waiting job of the walk; false ends the walk.
bool QueueScheduler::visit(JobId job, Scratch& scratch, std::optional<Reservation>& reservation, Plan& plan) {
  const state::ClusterView& view = scratch.view();
  if (scratch.total_free() == 0) {
    return false;  // nothing can start; every GPU job waits
  }
  if (!admission_->admit(job, view)) {
    return true;
  }
  if (reservation) {
    if (may_backfill(job, *reservation, view) && try_start(job, scratch, plan) &&
        view.now() + limit_of(job, view) > reservation->shadow) {
      reservation->extra -= view.spec(job).gpus;
    }
    return true;
  }
  if (try_start(job, scratch, plan) || blocking_ == Blocking::kSkip) {
    return true;
  }
  if (blocking_ == Blocking::kStrict) {
    return false;
  }
  reservation = reserve(job, scratch, plan);
  return true;
}

// easy-backfill walks every waiting job while a reservation stands, through the flat list; fifo and
// fjf stop early (at the first blocked job, or once no GPU is free) and walk the state's set (the
// list's upkeep made fjf 10% slower).
Plan QueueScheduler::schedule(const state::ClusterView& view) {
  Plan plan;
  Scratch scratch(view);
  std::optional<Reservation> reservation;
  auto visit_one = [&](JobId job) { return visit(job, scratch, reservation, plan); };
  if (blocking_ != Blocking::kBackfill) {
    for (JobId job : view.pending()) {
      if (!visit_one(job)) {
        break;
      }
    }
  } else {
    pending_.sync(view);
    pending_.walk(visit_one);
  }
  return plan;
}

Duration QueueScheduler::limit_of(const JobSpec& job) const {
  if (job.time_limit > Duration::zero()) {
    return job.time_limit;
  }
  return Duration::micros(std::llround(static_cast<double>(job.duration.us()) * time_limit_factor_));
}

Duration QueueScheduler::limit_of(JobId job, const state::ClusterView& view) const {
  if (limit_us_.size() < view.job_count()) {
    limit_us_.resize(view.job_count(), -1);
  }
  int64_t& limit = limit_us_[job.value()];
  if (limit < 0) {
    limit = limit_of(view.spec(job)).us();
  }
  return Duration::micros(limit);
}

// EASY's shadow time: walk running jobs (and those started this round) by expected end until
// enough GPUs are free for the head job.
QueueScheduler::Reservation QueueScheduler::reserve(JobId head, const Scratch& scratch,
                                                    const Plan& plan) const {
  const auto& view = scratch.view();
  std::vector<std::pair<Time, uint32_t>> ends;
  auto expected_end = [&](JobId j) {
    const Duration left = limit_of(j, view) - view.work_done(j);
    return view.now() + std::max(left, Duration::micros(1));
  };
  for (JobId j : view.running()) {
    ends.emplace_back(expected_end(j), view.spec(j).gpus);
  }
  for (const Start& s : plan.starts) {
    ends.emplace_back(expected_end(s.job), view.spec(s.job).gpus);
  }
  std::sort(ends.begin(), ends.end());
  uint64_t avail = scratch.total_free();
  const uint32_t need = view.spec(head).gpus;
  for (const auto& [end, gpus] : ends) {
    avail += gpus;
    if (avail >= need) {
      return Reservation{end, static_cast<uint32_t>(avail - need)};
    }
  }
  return Reservation{};
}

bool QueueScheduler::may_backfill(JobId job, Reservation& r, const state::ClusterView& view) const {
  return view.now() + limit_of(job, view) <= r.shadow || view.spec(job).gpus <= r.extra;
}

}  // namespace boreas::policy
