// Failures in the engine: one FailureProcess over every GPU node (its host and its GPUs as two
// components, FACTS §4.1 rates), drawn from the engine's one seeded generator, plus failures placed
// by hand. A failure kills the runs on the node; they lose the work since their last checkpoint,
// pay the restore and go back to the queue.

#include <algorithm>
#include <limits>

#include "sim/engine.h"

namespace boreas::sim {

void Engine::init_faults() {
  const PhysicsOptions& p = options_.physics;
  const Cluster& cluster = state_.cluster();
  for (uint32_t n = 0; n < cluster.nodes.size() && p.on.spot; ++n) {
    if (cluster.nodes[n].gpu_count > 0 &&
        cluster.zones[cluster.rack_of(cluster.nodes[n]).zone.value()].spot) {
      spot_nodes_.push_back(NodeId(n));
    }
  }
  draw_reclaim(Time());
  if (!p.on.failures) {
    return;
  }
  for (const InjectedFailure& f : p.injected_failures) {
    heap_.push(Event{f.at, seq_++, Kind::kFailure, f.node.value(), std::numeric_limits<uint32_t>::max()});
  }
  if (!p.random_failures) {
    return;
  }
  for (uint32_t n = 0; n < cluster.nodes.size(); ++n) {
    const uint32_t gpus = cluster.nodes[n].gpu_count;
    if (gpus == 0) {
      continue;
    }
    failures_.add(p.failure.node_mtbf_hours);
    failures_.add(p.failure.gpu_mtbf_hours / gpus);  // any of its GPUs
    failure_node_.push_back(NodeId(n));
    failure_node_.push_back(NodeId(n));
  }
  draw_failure(Time());
}

// Exponential draws are memoryless, so the next failure is drawn afresh after each one.
void Engine::draw_failure(Time t) {
  ++failure_version_;
  if (auto next = failures_.next(rng_)) {
    heap_.push(Event{t + next->after, seq_++, Kind::kFailure, next->component, failure_version_});
  }
}

// The jobs running on a node, each once.
std::vector<JobId> Engine::jobs_on(NodeId node) const {
  const Node& n = state_.cluster().nodes[node.value()];
  std::vector<JobId> jobs;
  for (uint32_t g = n.first_gpu; g < n.first_gpu + n.gpu_count; ++g) {
    const JobId owner = state_.gpu_owner(GpuId(g));
    if (owner.valid() && std::find(jobs.begin(), jobs.end(), owner) == jobs.end()) {
      jobs.push_back(owner);
    }
  }
  return jobs;
}

Status Engine::fail_node(NodeId node, Time t) {
  PhysicsTotals& totals = physics_->totals();
  ++totals.failures;
  const std::vector<JobId> victims = jobs_on(node);
  for (JobId j : victims) {
    ++totals.interrupted_runs;
    const Duration redo = physics_->lost_on_kill(j, t);
    BOREAS_RETURN_IF_ERROR(stop_run(j, t, JobState::kFailed, redo));
  }
  return Status::ok();
}

// Spot reclaims (models::next_reclaim): one process over the spot zones' GPU nodes, redrawn after
// each reclaim. Jobs on the node get the notice: those whose checkpoint write fits in it lose
// nothing but the restore. The node is back at once (no out-of-service state yet).
void Engine::draw_reclaim(Time t) {
  if (spot_nodes_.empty()) {
    return;
  }
  const models::SpotReclaim r =
      models::next_reclaim(options_.physics.spot, static_cast<uint32_t>(spot_nodes_.size()), rng_);
  heap_.push(Event{t + r.reclaim_after, seq_++, Kind::kSpot, spot_nodes_[r.node].value(), 0});
}

Status Engine::reclaim_node(NodeId node, Time t) {
  ++physics_->totals().spot_reclaims;
  const std::vector<JobId> victims = jobs_on(node);
  for (JobId j : victims) {
    const Duration redo = physics_->redo_after_notice(j, t, options_.physics.spot.notice);
    BOREAS_RETURN_IF_ERROR(stop_run(j, t, JobState::kPreempted, redo));
  }
  return Status::ok();
}

}  // namespace boreas::sim
