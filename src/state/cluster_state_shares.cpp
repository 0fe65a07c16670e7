// ClusterState's GPU sharing: share jobs' queue, their starts on a GPU beside other shares, and
// the invariants of the share table (state/gpu_shares.h).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "state/cluster_state.h"
#include "state/job_name.h"

namespace boreas::state {

namespace {
constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;
}  // namespace

void ClusterState::enqueue(JobId job) {
  if (is_share_job(job)) {
    share_pending_.insert(job);
    return;
  }
  pending_.insert(job);
  pending_gpus_ += spec(job).gpus;
}

bool ClusterState::dequeue(JobId job) {
  if (share_pending_.erase(job) > 0) {
    return true;
  }
  if (pending_.erase(job) > 0) {
    pending_gpus_ -= spec(job).gpus;
    return true;
  }
  return false;
}

Status ClusterState::submit_share(JobId job, Time now) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  if (records_[job.value()].submitted) {
    return conflict(job_name(job) + " was already submitted");
  }
  if (spec(job).gpus != 1) {
    return invalid_argument(job_name(job) + " asks for " + std::to_string(spec(job).gpus) +
                            " GPUs; a share job holds a share of exactly one");
  }
  share_job_[job.value()] = 1;
  return submit(job, now);
}

uint64_t ClusterState::gpu_memory_bytes(GpuId gpu) const {
  const Node& n = cluster_.nodes[gpu_node_[gpu.value()].value()];
  if (!n.gpu_type) {
    return 0;
  }
  return static_cast<uint64_t>(std::llround(cluster_.catalog.at(*n.gpu_type).memory_gib * kBytesPerGib));
}

uint32_t ClusterState::queue_share_milli(Symbol queue) const {
  auto it = queue_share_milli_.find(queue.index());
  return it == queue_share_milli_.end() ? 0 : it->second;
}

Status ClusterState::start_share(JobId job, GpuId gpu, uint32_t milli, uint64_t bytes, Time now) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  JobRecord& r = records_[job.value()];
  if (!is_share_job(job) || !r.submitted) {
    return conflict(job_name(job) + " was not submitted as a share job (submit_share)");
  }
  if (r.held) {
    return conflict(job_name(job) + " is held: release it before it starts");
  }
  BOREAS_RETURN_IF_ERROR(with_job_context(job, check_transition(r.state, JobState::kRunning)));
  if (!gpu.valid() || gpu.value() >= owner_.size()) {
    return invalid_argument(job_name(job) + ": GPU " + std::to_string(gpu.value()) + " does not exist");
  }
  const std::string where = job_name(job) + ": GPU " + std::to_string(gpu.value());
  if (milli == 0 || milli > kMilliPerGpu) {
    return invalid_argument(where + ": a share is 1 to 1000 milli-GPU, got " + std::to_string(milli));
  }
  if (owner_[gpu.value()].valid() || !placeable(gpu_node_[gpu.value()])) {
    return conflict(where + " is held whole, or its node is out of service or cordoned");
  }
  const uint64_t capacity = gpu_memory_bytes(gpu);
  if (!shares_.fits(gpu, milli, bytes, capacity)) {
    return conflict(where + " has " + std::to_string(kMilliPerGpu - shares_.milli_used(gpu)) + " milli and " +
                    std::to_string(capacity - std::min(capacity, shares_.bytes_used(gpu))) +
                    " bytes of memory left; the share asks " + std::to_string(milli) + " milli and " +
                    std::to_string(bytes) + " bytes");
  }
  mark_running(job, now);
  r.gpus.assign(1, gpu);
  if (shares_.add(gpu, GpuShare{job, milli, bytes})) {
    shift_free(gpu_node_[gpu.value()], -1);
  }
  queue_share_milli_[spec(job).queue.index()] += milli;
  journal_.push_back(job);
  return Status::ok();
}

void ClusterState::give_back_share(JobId job) {
  const GpuId gpu = records_[job.value()].gpus.front();
  queue_share_milli_[spec(job).queue.index()] -= shares_.of(gpu, job).milli;
  if (shares_.remove(gpu, job) && !cordoned_[gpu_node_[gpu.value()].value()]) {
    shift_free(gpu_node_[gpu.value()], 1);  // its last share left; a cordoned node's GPU stays out
  }
}

// Every running share job holds exactly one share, on one GPU of no whole owner; per GPU the
// shares are exactly those jobs, their milli sum to at most 1000 and their bytes fit the memory;
// per queue the milli add up; share jobs wait only in share_pending().
Status ClusterState::check_shares() const {
  std::map<uint32_t, std::vector<JobId>> holders;  // GPU -> running share jobs
  std::unordered_map<uint32_t, uint32_t> queue_milli;
  for (JobId j : running_) {
    if (!is_share_job(j)) {
      continue;
    }
    const JobRecord& r = records_[j.value()];
    if (r.gpus.size() != 1 || shares_.of(r.gpus.front(), j).milli == 0) {
      return internal_error(job_name(j) + " runs as a share job but holds no share of one GPU");
    }
    holders[r.gpus.front().value()].push_back(j);
    queue_milli[spec(j).queue.index()] += shares_.of(r.gpus.front(), j).milli;
  }
  for (uint32_t g = 0; g < owner_.size(); ++g) {
    const GpuId gpu(g);
    uint32_t milli = 0;
    uint64_t bytes = 0;
    for (const GpuShare& s : shares_.on(gpu)) {
      milli += s.milli;
      bytes += s.bytes;
    }
    const auto it = holders.find(g);
    const size_t running = it == holders.end() ? 0 : it->second.size();
    if (running != shares_.on(gpu).size() || milli != shares_.milli_used(gpu) || bytes != shares_.bytes_used(gpu)) {
      return internal_error("GPU " + std::to_string(g) + ": its share table disagrees with the running share jobs");
    }
    if (milli > kMilliPerGpu || bytes > gpu_memory_bytes(gpu)) {
      return internal_error("GPU " + std::to_string(g) + " is over-committed: " + std::to_string(milli) +
                            " milli and " + std::to_string(bytes) + " bytes of " +
                            std::to_string(gpu_memory_bytes(gpu)) + " in shares");
    }
    if (running > 0 && owner_[g].valid()) {
      return internal_error("GPU " + std::to_string(g) + " is shared and held whole by job " +
                            std::to_string(owner_[g].value()));
    }
  }
  for (const auto& [queue, milli] : queue_share_milli_) {
    const auto it = queue_milli.find(queue);
    if (milli != (it == queue_milli.end() ? 0 : it->second)) {
      return internal_error("a queue's milli-GPU in shares disagrees with its running share jobs");
    }
  }
  for (JobId j : pending_) {
    if (is_share_job(j)) {
      return internal_error(job_name(j) + " is a share job in the whole-GPU pending set");
    }
  }
  for (JobId j : share_pending_) {
    if (!is_share_job(j)) {
      return internal_error(job_name(j) + " is a whole-GPU job in the share pending set");
    }
  }
  return Status::ok();
}

}  // namespace boreas::state
