#pragma once
// The read-only face of ClusterState that a scheduler sees, pinned to one instant.

#include <span>

#include "state/cluster_state.h"

namespace boreas::state {

class ClusterView {
 public:
  ClusterView(const ClusterState& state, Time now) : state_(state), now_(now) {}

  Time now() const { return now_; }
  const ClusterState& state() const { return state_; }
  const Cluster& cluster() const { return state_.cluster(); }
  size_t job_count() const { return state_.job_count(); }
  const JobSpec& spec(JobId job) const { return state_.spec(job); }
  const JobRecord& record(JobId job) const { return state_.record(job); }

  const OrderedIdSet<JobId>& pending() const { return state_.pending(); }
  std::span<const JobId> running() const { return state_.running(); }
  const std::vector<JobId>& finished() const { return state_.finished(); }

  uint32_t total_gpus() const { return state_.total_gpus(); }
  uint32_t free_gpus() const { return state_.free_gpus(); }  // excludes nodes out of service
  uint32_t down_gpus() const { return state_.down_gpus(); }  // on nodes out of service
  bool node_down(NodeId node) const { return state_.node_down(node); }

  Duration work_done(JobId job) const { return state_.work_done_at(job, now_); }
  Duration remaining(JobId job) const { return state_.remaining_at(job, now_); }
  // Attained service in GPU-microseconds (work done × gang size), as LAS and Gittins measure it.
  int64_t attained_gpu_us(JobId job) const { return work_done(job).us() * spec(job).gpus; }

 private:
  const ClusterState& state_;
  Time now_;
};

}  // namespace boreas::state
