// sbatch --dependency in the live controller: a pending job waits (reason `Dependency`) until
// the jobs it names have ended as it asks; when they cannot (afterok on a job that failed), it
// is cancelled with reason `DependencyNeverSatisfied`, as Slurm does.

#include "server/controller.h"
#include "server/dependency.h"
#include "server/job_records.h"

namespace boreas::server {
namespace {

DependencyState state_in(const std::vector<LiveJob>& jobs, const std::string& text) {
  auto deps = parse_dependency(text);  // checked at submit; a bad stored one never runs
  if (!deps.is_ok()) {
    return DependencyState::kNeverSatisfied;
  }
  return dependency_state(*deps, [&](JobId id) -> std::optional<JobState> {
    const uint32_t v = id.value();
    if (v < 1 || v > jobs.size() || jobs[v - 1].placeholder) {
      return std::nullopt;
    }
    return jobs[v - 1].state;
  });
}

}  // namespace

Status Controller::check_dependency_jobs(const SubmitRequest& req) const {
  auto deps = parse_dependency(req.dependency);
  if (!deps.is_ok()) {
    return deps.status().with_context("$.dependency: ");
  }
  for (const Dependency& d : *deps) {
    for (JobId id : d.jobs) {
      if (id.value() > jobs_.size() || jobs_[id.value() - 1].placeholder) {
        return invalid_argument("$.dependency: no job " + std::to_string(id.value()));
      }
    }
  }
  return Status::ok();
}

bool Controller::waits_on_dependency(const LiveJob& job) const {
  return !job.request.dependency.empty() && state_in(jobs_, job.request.dependency) != DependencyState::kMet;
}

void Controller::resolve_dependencies(Time now) {
  for (LiveJob& j : jobs_) {
    if (j.state != JobState::kPending || j.request.dependency.empty()) {
      continue;
    }
    const DependencyState s = state_in(jobs_, j.request.dependency);
    if (s == DependencyState::kWaiting) {
      j.reason = "Dependency: waits for " + j.request.dependency;
      j.reason_kind = "Dependency";
    } else if (s == DependencyState::kNeverSatisfied) {
      j.state = JobState::kCancelled;
      j.end = now;
      j.reason = "DependencyNeverSatisfied: " + j.request.dependency + " can no longer be met";
      j.reason_kind.clear();
      note("job.cancel", {{"job", j.id.value()}, {"by", "dependency"}, {"state", "cancelled"}});
      write_async({update_job_row(j, now)});
    }
  }
}

}  // namespace boreas::server
