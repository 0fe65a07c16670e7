#include "state/cluster_state.h"
#include "state/job_name.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace boreas::state {


ClusterState::ClusterState(const Cluster& cluster, std::span<const JobSpec> jobs, const SymbolTable& symbols)
    : cluster_(cluster),
      jobs_(jobs),
      symbols_(symbols),
      records_(jobs.size()),
      owner_(cluster.gpu_count()),
      gpu_node_(cluster.gpu_count()),
      node_free_(cluster.nodes.size(), 0),
      rack_free_(cluster.racks.size(), 0),
      zone_free_(cluster.zones.size(), 0),
      rack_nodes_(cluster.racks.size()),
      down_(cluster.nodes.size(), 0),
      index_(cluster),
      share_job_(jobs.size(), 0),
      shares_(cluster.gpu_count()) {
  for (uint32_t i = 0; i < cluster.nodes.size(); ++i) {
    const Node& n = cluster.nodes[i];
    for (uint32_t g = 0; g < n.gpu_count; ++g) {
      gpu_node_[n.first_gpu + g] = NodeId(i);
    }
    node_free_[i] = n.gpu_count;
    rack_free_[n.rack.value()] += n.gpu_count;
    zone_free_[cluster.racks[n.rack.value()].zone.value()] += n.gpu_count;
    rack_nodes_[n.rack.value()].push_back(NodeId(i));
  }
  free_total_ = total_gpus();
  running_pos_.assign(jobs.size(), 0);
  cordoned_.assign(cluster.nodes.size(), 0);
}

uint32_t ClusterState::queue_gpus_in_use(Symbol queue) const {
  auto it = queue_gpus_.find(queue.index());
  return it == queue_gpus_.end() ? 0 : it->second;
}

Status ClusterState::check_job(JobId job) const {
  if (!job.valid() || job.value() >= records_.size()) {
    return invalid_argument("unknown job id " + std::to_string(job.value()) + " (the state holds " +
                            std::to_string(records_.size()) + " jobs)");
  }
  return Status::ok();
}

Status ClusterState::check_node(NodeId node) const {
  if (!node.valid() || node.value() >= down_.size()) {
    return invalid_argument("unknown node id " + std::to_string(node.value()));
  }
  return Status::ok();
}

Status ClusterState::submit(JobId job, Time now) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  JobRecord& r = records_[job.value()];
  if (r.submitted) {
    return conflict(job_name(job) + " was already submitted");
  }
  r.submitted = true;
  r.pending_since = now;
  enqueue(job);
  journal_.push_back(job);
  return Status::ok();
}

Status ClusterState::check_gpus(JobId job, std::span<const GpuId> gpus) const {
  if (gpus.size() != spec(job).gpus) {
    return invalid_argument(job_name(job) + " needs " + std::to_string(spec(job).gpus) +
                            " GPUs but was given " + std::to_string(gpus.size()) +
                            "; a gang is placed whole or not at all");
  }
  for (size_t i = 0; i < gpus.size(); ++i) {
    const GpuId g = gpus[i];
    if (!g.valid() || g.value() >= owner_.size()) {
      return invalid_argument(job_name(job) + ": GPU " + std::to_string(g.value()) + " does not exist");
    }
    if (owner_[g.value()].valid()) {
      return conflict(job_name(job) + ": GPU " + std::to_string(g.value()) + " is held by job " +
                      std::to_string(owner_[g.value()].value()));
    }
    if (shares_.shared(g)) {
      return conflict(job_name(job) + ": GPU " + std::to_string(g.value()) + " is shared by job " +
                      std::to_string(shares_.on(g).front().job.value()) + "; a whole-GPU job waits until its shares leave");
    }
    if (down_[gpu_node_[g.value()].value()]) {
      return conflict(job_name(job) + ": GPU " + std::to_string(g.value()) + " is on node " +
                      cluster_.nodes[gpu_node_[g.value()].value()].name + ", which is out of service");
    }
    if (cordoned_[gpu_node_[g.value()].value()]) {
      return conflict(job_name(job) + ": GPU " + std::to_string(g.value()) + " is on node " +
                      cluster_.nodes[gpu_node_[g.value()].value()].name + ", which is cordoned (drained)");
    }
  }
  std::vector<GpuId> sorted(gpus.begin(), gpus.end());
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    return invalid_argument(job_name(job) + ": a GPU is listed twice");
  }
  return Status::ok();
}

Status ClusterState::start(JobId job, std::span<const GpuId> gpus, Time now) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  JobRecord& r = records_[job.value()];
  if (!r.submitted) {
    return conflict(job_name(job) + " cannot start before it is submitted");
  }
  if (is_share_job(job)) {
    return invalid_argument(job_name(job) + " shares a GPU: start it with start_share");
  }
  if (r.held) {
    return conflict(job_name(job) + " is held: release it before it starts");
  }
  BOREAS_RETURN_IF_ERROR(with_job_context(job, check_transition(r.state, JobState::kRunning)));
  BOREAS_RETURN_IF_ERROR(check_gpus(job, gpus));
  mark_running(job, now);
  take(job, gpus);
  journal_.push_back(job);
  return Status::ok();
}

// Pending → running: times, the pending and running sets (the caller then takes its GPUs).
void ClusterState::mark_running(JobId job, Time now) {
  JobRecord& r = records_[job.value()];
  r.state = JobState::kRunning;
  r.pending_total += now - r.pending_since;
  r.last_start = now;
  if (r.first_start.is_never()) {
    r.first_start = now;
  }
  dequeue(job);
  running_pos_[job.value()] = static_cast<uint32_t>(running_.size());
  running_.push_back(job);
}

void ClusterState::set_node_free(NodeId node, uint32_t value) {
  index_.update(node, node_free_[node.value()], value);
  node_free_[node.value()] = value;
}

void ClusterState::shift_free(NodeId node, int32_t delta) {
  const Node& n = cluster_.nodes[node.value()];
  const auto add = [delta](uint32_t& v) { v = static_cast<uint32_t>(static_cast<int32_t>(v) + delta); };
  set_node_free(node, static_cast<uint32_t>(static_cast<int32_t>(node_free_[node.value()]) + delta));
  add(rack_free_[n.rack.value()]);
  add(zone_free_[cluster_.racks[n.rack.value()].zone.value()]);
  add(free_total_);
}

void ClusterState::take(JobId job, std::span<const GpuId> gpus) {
  JobRecord& r = records_[job.value()];
  r.gpus.assign(gpus.begin(), gpus.end());
  for (GpuId g : gpus) {
    owner_[g.value()] = job;
    shift_free(gpu_node_[g.value()], -1);
  }
  queue_gpus_[spec(job).queue.index()] += static_cast<uint32_t>(gpus.size());
}

// Work done up to `now`, at most the job's total: a finish instant rounded up to the microsecond
// at a rate other than 1 can overshoot it by a microsecond.
Duration ClusterState::banked_work(JobId job, Time now) const {
  return std::min(work_done_at(job, now), spec(job).duration + records_[job.value()].extra_work);
}

// Frees the job's GPUs and banks the work done so far.
void ClusterState::give_back(JobId job, Time now) {
  JobRecord& r = records_[job.value()];
  r.work_done = banked_work(job, now);
  r.run_time += now - r.last_start;
  if (is_share_job(job)) {
    give_back_share(job);
  } else {
    for (GpuId g : r.gpus) {
      owner_[g.value()] = JobId();
      if (!cordoned_[gpu_node_[g.value()].value()]) {  // a cordoned node's freed GPUs stay out
        shift_free(gpu_node_[g.value()], 1);
      }
    }
    queue_gpus_[spec(job).queue.index()] -= static_cast<uint32_t>(r.gpus.size());
  }
  r.gpus.clear();
  // Swap-remove keeps this O(1); the moved job's position is patched.
  const uint32_t at = running_pos_[job.value()];
  running_[at] = running_.back();
  running_pos_[running_[at].value()] = at;
  running_.pop_back();
}

Status ClusterState::preempt(JobId job, Time now, Duration overhead) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  JobRecord& r = records_[job.value()];
  BOREAS_RETURN_IF_ERROR(with_job_context(job, check_transition(r.state, JobState::kPreempted)));
  give_back(job, now);
  r.state = JobState::kPreempted;
  r.extra_work += overhead;
  r.preemptions += 1;
  r.pending_since = now;
  enqueue(job);
  journal_.push_back(job);
  return Status::ok();
}

Status ClusterState::restore(JobId job, Duration work_done, Duration run_time, uint32_t preemptions) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  JobRecord& r = records_[job.value()];
  if (!queued(job)) {
    return conflict(job_name(job) + ": only a pending job's history can be restored");
  }
  r.work_done = work_done;
  r.run_time = run_time;
  r.preemptions = preemptions;
  r.extra_work = std::max(r.extra_work, work_done - spec(job).duration);
  return Status::ok();
}

Status ClusterState::requeue(JobId job, Time now, Duration redo) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  JobRecord& r = records_[job.value()];
  BOREAS_RETURN_IF_ERROR(with_job_context(job, check_transition(r.state, JobState::kPending)));
  if (r.state == JobState::kRunning) {
    give_back(job, now);
    r.pending_since = now;
    enqueue(job);
  }
  r.extra_work += redo;
  r.state = JobState::kPending;
  journal_.push_back(job);
  return Status::ok();
}

Status ClusterState::finish(JobId job, Time now, JobState final_state) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  JobRecord& r = records_[job.value()];
  if (!is_terminal(final_state)) {
    return invalid_argument(job_name(job) + ": finish needs a terminal state, got " +
                            std::string(to_string(final_state)));
  }
  BOREAS_RETURN_IF_ERROR(with_job_context(job, check_transition(r.state, final_state)));
  if (r.state == JobState::kRunning) {
    give_back(job, now);
  } else {
    dequeue(job);
  }
  r.state = final_state;
  r.held = false;
  r.end = now;
  finished_.push_back(job);
  journal_.push_back(job);
  return Status::ok();
}

Status ClusterState::cancel(JobId job, Time now) {
  return finish(job, now, JobState::kCancelled);
}

Status ClusterState::set_rate(JobId job, double rate, Time now) {
  BOREAS_RETURN_IF_ERROR(check_job(job));
  if (!(rate > 0)) {
    return invalid_argument(job_name(job) + ": rate must be > 0, got " + std::to_string(rate));
  }
  JobRecord& r = records_[job.value()];
  if (r.state == JobState::kRunning) {
    r.work_done = banked_work(job, now);
    r.run_time += now - r.last_start;
    r.last_start = now;
    rate_journal_.push_back(job);
  }
  r.rate = rate;
  return Status::ok();
}

Status ClusterState::take_down(NodeId node) {
  BOREAS_RETURN_IF_ERROR(check_node(node));
  const Node& n = cluster_.nodes[node.value()];
  if (down_[node.value()]) {
    return conflict("node " + n.name + " is already out of service");
  }
  if (cordoned_[node.value()]) {
    return conflict("node " + n.name + " is cordoned; uncordon it before taking it out of service");
  }
  if (node_free_[node.value()] != n.gpu_count) {
    return conflict("node " + n.name + " still runs jobs; stop them before taking it out of service");
  }
  shift_free(node, -static_cast<int32_t>(n.gpu_count));
  down_[node.value()] = 1;
  down_total_ += n.gpu_count;
  return Status::ok();
}

Status ClusterState::bring_up(NodeId node) {
  BOREAS_RETURN_IF_ERROR(check_node(node));
  const Node& n = cluster_.nodes[node.value()];
  if (!down_[node.value()]) {
    return conflict("node " + n.name + " is in service already");
  }
  down_[node.value()] = 0;
  down_total_ -= n.gpu_count;
  shift_free(node, static_cast<int32_t>(n.gpu_count));
  return Status::ok();
}

uint32_t ClusterState::unheld_on(NodeId node) const {
  const Node& n = cluster_.nodes[node.value()];
  uint32_t count = 0;
  for (uint32_t g = 0; g < n.gpu_count; ++g) {
    const GpuId gpu(n.first_gpu + g);
    count += owner_[gpu.value()].valid() || shares_.shared(gpu) ? 0 : 1;
  }
  return count;
}

Status ClusterState::cordon(NodeId node) {
  BOREAS_RETURN_IF_ERROR(check_node(node));
  const Node& n = cluster_.nodes[node.value()];
  if (cordoned_[node.value()]) {
    return conflict("node " + n.name + " is already cordoned");
  }
  if (down_[node.value()]) {
    return conflict("node " + n.name + " is out of service; bring it up before cordoning it");
  }
  shift_free(node, -static_cast<int32_t>(node_free_[node.value()]));
  cordoned_[node.value()] = 1;
  return Status::ok();
}

Status ClusterState::uncordon(NodeId node) {
  BOREAS_RETURN_IF_ERROR(check_node(node));
  if (!cordoned_[node.value()]) {
    return conflict("node " + cluster_.nodes[node.value()].name + " is not cordoned");
  }
  cordoned_[node.value()] = 0;
  shift_free(node, static_cast<int32_t>(unheld_on(node)));
  return Status::ok();
}

}  // namespace boreas::state
