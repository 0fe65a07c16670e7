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
  if (!p.on.failures) {
    return;
  }
  for (const InjectedFailure& f : p.injected_failures) {
    heap_.push(Event{f.at, seq_++, Kind::kFailure, f.node.value(), std::numeric_limits<uint32_t>::max()});
  }
  if (!p.random_failures) {
    return;
  }
  const Cluster& cluster = state_.cluster();
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

Status Engine::fail_node(NodeId node, Time t) {
  PhysicsTotals& totals = physics_->totals();
  ++totals.failures;
  const Node& n = state_.cluster().nodes[node.value()];
  std::vector<JobId> victims;
  for (uint32_t g = n.first_gpu; g < n.first_gpu + n.gpu_count; ++g) {
    const JobId owner = state_.gpu_owner(GpuId(g));
    if (owner.valid() && std::find(victims.begin(), victims.end(), owner) == victims.end()) {
      victims.push_back(owner);
    }
  }
  for (JobId j : victims) {
    ++totals.interrupted_runs;
    const Duration redo = physics_->lost_on_kill(j, t);
    BOREAS_RETURN_IF_ERROR(stop_run(j, t, JobState::kFailed, redo));
  }
  return Status::ok();
}

}  // namespace boreas::sim
