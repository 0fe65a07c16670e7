// sbatch --dependency in the live controller: a pending job waits (reason `Dependency`) until
// the jobs it names have ended as it asks; when they cannot (afterok on a job that failed), it
// is cancelled with reason `DependencyNeverSatisfied`, as Slurm does. A waiting job sits out of
// the long-lived state (set aside, like a job waiting for its victims), so no policy places it.

#include "server/driver/controller.h"
#include "server/jobs/dependency.h"
#include "server/jobs/job_records.h"

namespace boreas::server {

// A job in memory, else an ended job from the store (its state is final, so it is kept); nullopt
// when no such job was ever committed, or the store cannot answer (the job waits a round).
std::optional<JobState> Controller::state_of_job(JobId id) const {
  if (const auto it = jobs_.find(id.value()); it != jobs_.end()) {
    return it->second.state;
  }
  if (const auto it = ended_states_.find(id.value()); it != ended_states_.end()) {
    return it->second;
  }
  auto stored = load_job(store_, id);
  if (!stored.is_ok() || !*stored) {
    return std::nullopt;
  }
  ended_states_.emplace(id.value(), (*stored)->state);
  return (*stored)->state;
}

Status Controller::check_dependency_jobs(const SubmitRequest& req) const {
  auto deps = parse_dependency(req.dependency);
  if (!deps.is_ok()) {
    return deps.status().with_context("$.dependency: ");
  }
  for (const Dependency& d : *deps) {
    for (JobId id : d.jobs) {
      if (!state_of_job(id)) {
        return invalid_argument("$.dependency: no job " + std::to_string(id.value()));
      }
    }
  }
  return Status::ok();
}

namespace {
DependencyState state_in(const std::string& text, const std::function<std::optional<JobState>(JobId)>& state_of) {
  auto deps = parse_dependency(text);  // checked at submit; a bad stored one never runs
  if (!deps.is_ok()) {
    return DependencyState::kNeverSatisfied;
  }
  return dependency_state(*deps, state_of);
}
}  // namespace

bool Controller::waits_on_dependency(const LiveJob& job) const {
  return !job.request.dependency.empty() &&
         state_in(job.request.dependency, [this](JobId id) { return state_of_job(id); }) !=
             DependencyState::kMet;
}

// Before each round: a job still waiting is set aside (out of the state), one that can never run
// is cancelled; a met one comes back with the jobs whose victims have exited (bring_back_set_aside).
void Controller::resolve_dependencies(Time now) {
  if (with_dependency_ == 0) {
    return;  // a walk over every job in memory per round, for nothing
  }
  std::vector<LiveJob*> never;
  for (auto& [id, j] : jobs_) {
    if (j.state != JobState::kPending || j.request.dependency.empty()) {
      continue;
    }
    const DependencyState s =
        state_in(j.request.dependency, [this](JobId d) { return state_of_job(d); });
    if (s == DependencyState::kWaiting) {
      j.reason = "Dependency: waits for " + j.request.dependency;
      j.reason_kind = "Dependency";
      (void)set_aside(j);
    } else if (s == DependencyState::kNeverSatisfied) {
      never.push_back(&j);
    }
  }
  for (LiveJob* j : never) {
    j->state = JobState::kCancelled;
    j->end = now;
    j->reason = "DependencyNeverSatisfied: " + j->request.dependency + " can no longer be met";
    j->reason_kind.clear();
    state_cancelled(*j);
    dirty_ = true;
    note("job.cancel", {{"job", j->id.value()}, {"by", "dependency"}, {"state", "cancelled"}});
    retire(*j, write_async({update_job_row(*j, now)}));
  }
}

}  // namespace boreas::server
