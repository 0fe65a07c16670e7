// The per-GPU loads the engine's physics keeps on start and stop: each GPU's activity and the
// queue its energy is charged to, so the rack passes (advance_rack, refresh_rack, cap_group) read
// two dense arrays instead of the owner and its spec per GPU.

#include <string>

#include "sim/physics.h"

namespace boreas::sim {

double Physics::owner_activity(GpuId gpu) const {
  const JobId owner = state_.gpu_owner(gpu);
  if (!owner.valid()) {
    return 0;
  }
  return state_.spec(owner).kind == JobKind::kInference ? options_.inference_activity
                                                        : options_.training_activity;
}

void Physics::set_gpu_loads(std::span<const GpuId> gpus, JobId owner) {
  const double act = owner.valid() ? (state_.spec(owner).kind == JobKind::kInference ? options_.inference_activity
                                                                                     : options_.training_activity)
                                   : 0.0;
  const uint32_t queue = owner.valid() ? state_.spec(owner).queue.index() : kIdleQueue;
  for (GpuId g : gpus) {
    gpu_act_[g.value()] = act;
    gpu_queue_[g.value()] = queue;
    node_sum_[state_.node_of(g).value()].stale = true;  // its powers change
  }
}

Status Physics::check_gpu_loads() const {
  for (uint32_t g = 0; g < gpu_act_.size(); ++g) {
    const JobId owner = state_.gpu_owner(GpuId(g));
    const uint32_t queue = owner.valid() ? state_.spec(owner).queue.index() : kIdleQueue;
    if (gpu_act_[g] != owner_activity(GpuId(g)) || gpu_queue_[g] != queue) {
      return internal_error("physics: GPU " + std::to_string(g) + " keeps activity " + std::to_string(gpu_act_[g]) +
                            " and queue " + std::to_string(gpu_queue_[g]) + ", its owner says " +
                            std::to_string(owner_activity(GpuId(g))) + " and " + std::to_string(queue) +
                            " (a start or stop did not update the kept loads)");
    }
  }
  return Status::ok();
}

}  // namespace boreas::sim
