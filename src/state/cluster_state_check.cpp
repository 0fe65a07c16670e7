// ClusterState::check_invariants: everything the incremental updates maintain, re-derived.
#include <string>
#include <vector>

#include "state/cluster_state.h"

namespace boreas::state {

Status ClusterState::check_gpu_owners() const {
  std::vector<JobId> expect(owner_.size());
  for (JobId j : running_) {
    const JobRecord& r = records_[j.value()];
    if (is_share_job(j)) {
      continue;  // check_shares
    }
    if (r.gpus.size() != spec(j).gpus) {
      return internal_error("job " + std::to_string(j.value()) + " runs on " + std::to_string(r.gpus.size()) +
                            " GPUs, its gang is " + std::to_string(spec(j).gpus));
    }
    for (GpuId g : r.gpus) {
      if (expect[g.value()].valid()) {
        return internal_error("GPU " + std::to_string(g.value()) + " held by jobs " +
                              std::to_string(expect[g.value()].value()) + " and " +
                              std::to_string(j.value()));
      }
      expect[g.value()] = j;
    }
  }
  for (size_t g = 0; g < owner_.size(); ++g) {
    if (expect[g] != owner_[g]) {
      return internal_error("GPU " + std::to_string(g) + " owner table disagrees with the running jobs");
    }
  }
  return Status::ok();
}

Status ClusterState::check_free_counts() const {
  std::vector<uint32_t> node(node_free_.size(), 0), rack(rack_free_.size(), 0), zone(zone_free_.size(), 0);
  uint32_t total = 0, down = 0;
  for (size_t g = 0; g < owner_.size(); ++g) {
    const NodeId n = gpu_node_[g];
    if (down_[n.value()] && owner_[g].valid()) {
      return internal_error("GPU " + std::to_string(g) + " on out-of-service node " +
                            cluster_.nodes[n.value()].name + " is held by job " +
                            std::to_string(owner_[g].value()));
    }
    if (down_[n.value()] && cordoned_[n.value()]) {
      return internal_error("node " + cluster_.nodes[n.value()].name + " is both out of service and cordoned");
    }
    down += down_[n.value()];
    if (owner_[g].valid() || !placeable(n) || shares_.shared(GpuId(static_cast<uint32_t>(g)))) {
      continue;
    }
    const RackId r = cluster_.nodes[n.value()].rack;
    node[n.value()] += 1;
    rack[r.value()] += 1;
    zone[cluster_.racks[r.value()].zone.value()] += 1;
    total += 1;
  }
  if (node != node_free_ || rack != rack_free_ || zone != zone_free_ || total != free_total_ ||
      down != down_total_) {
    return internal_error(
        "free GPU counts (node, rack, zone, total or out of service) disagree with the owner table and the "
        "nodes out of service or cordoned");
  }
  for (uint32_t i = 0; i < node_free_.size(); ++i) {
    const Node& n = cluster_.nodes[i];
    if (!n.gpu_type || n.gpu_count == 0) {
      continue;
    }
    bool found = false;
    for (NodeId m : index_.nodes_with(*n.gpu_type, node_free_[i])) {
      found = found || m == NodeId(i);
    }
    if (!found) {
      return internal_error("node " + n.name + " is missing from the free index bucket " +
                            std::to_string(node_free_[i]));
    }
  }
  return Status::ok();
}

Status ClusterState::check_job_sets() const {
  uint64_t demand = 0;
  size_t pending = 0, running = 0, finished = 0;
  for (uint32_t i = 0; i < records_.size(); ++i) {
    const JobRecord& r = records_[i];
    const bool in_pending = queued(JobId(i));
    const uint32_t pos = running_pos_[i];
    const bool in_running = pos < running_.size() && running_[pos] == JobId(i);
    const bool waits = r.submitted && (r.state == JobState::kPending || r.state == JobState::kPreempted);
    if (r.held && !waits) {
      return internal_error("job " + std::to_string(i) + " is held but not waiting (" + std::string(to_string(r.state)) + ")");
    }
    const bool is_pending = waits && !r.held;
    if (in_pending != is_pending || in_running != (r.state == JobState::kRunning)) {
      return internal_error("job " + std::to_string(i) + " is in the wrong set for state " +
                            std::string(to_string(r.state)));
    }
    demand += is_pending && share_job_[i] == 0 ? jobs_[i].gpus : 0;
    pending += is_pending;
    running += in_running;
    finished += is_terminal(r.state);
    if (r.work_done > jobs_[i].duration + r.extra_work) {
      return internal_error("job " + std::to_string(i) + " did more work than it has");
    }
  }
  if (demand != pending_gpus_ || pending != pending_.size() + share_pending_.size() || running != running_.size() ||
      finished != finished_.size()) {
    return internal_error("job set sizes or pending GPU demand disagree with the job table");
  }
  return Status::ok();
}

Status ClusterState::check_invariants() const {
  BOREAS_RETURN_IF_ERROR(check_gpu_owners());
  BOREAS_RETURN_IF_ERROR(check_free_counts());
  BOREAS_RETURN_IF_ERROR(check_shares());
  return check_job_sets();
}

}  // namespace boreas::state
