// ClusterState's job table: append-only, grown in place by add_job, and the hold that takes a
// waiting job out of the policies' sight without leaving the table.

#include <string>

#include "state/cluster_state.h"
#include "state/job_name.h"

namespace boreas::state {


// A borrowed table is copied once, at the first change.
void ClusterState::own_jobs() {
  if (!owns_jobs_) {
    owned_jobs_.assign(jobs_.begin(), jobs_.end());
    jobs_ = owned_jobs_;
    owns_jobs_ = true;
  }
}

JobId ClusterState::add_job(JobSpec spec) {
  own_jobs();
  const JobId id(static_cast<uint32_t>(owned_jobs_.size()));
  spec.id = id;
  owned_jobs_.push_back(spec);
  jobs_ = owned_jobs_;
  records_.emplace_back();
  running_pos_.push_back(0);
  share_job_.push_back(0);
  return id;
}

Status ClusterState::set_preemptible(JobId job, bool preemptible) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  own_jobs();
  owned_jobs_[job.value()].preemptible = preemptible;
  return Status::ok();
}

Status ClusterState::hold(JobId job) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  JobRecord& r = records_[job.value()];
  if (r.held) {
    return conflict(job_name(job) + " is held already");
  }
  if (!dequeue(job)) {
    return conflict(job_name(job) + " is not waiting (" +
                    (r.submitted ? std::string(to_string(r.state)) : std::string("not submitted")) +
                    "); only a waiting job can be held");
  }
  r.held = true;
  journal_.push_back(job);
  return Status::ok();
}

Status ClusterState::release(JobId job) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  JobRecord& r = records_[job.value()];
  if (!r.held) {
    return conflict(job_name(job) + " is not held");
  }
  r.held = false;
  enqueue(job);
  journal_.push_back(job);
  return Status::ok();
}

}  // namespace boreas::state
