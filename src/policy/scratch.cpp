#include "policy/scratch.h"

#include <algorithm>
#include <cassert>

namespace boreas::policy {

bool Scratch::gpu_free(GpuId gpu) const {
  auto it = gpu_free_.find(gpu.value());
  return it != gpu_free_.end() ? it->second : view_.state().gpu_free(gpu);
}

uint32_t Scratch::node_free(NodeId node) const {
  auto it = node_delta_.find(node.value());
  const int32_t delta = it == node_delta_.end() ? 0 : it->second;
  return static_cast<uint32_t>(static_cast<int32_t>(view_.state().node_free(node)) + delta);
}

uint32_t Scratch::rack_free(RackId rack) const {
  auto it = rack_delta_.find(rack.value());
  const int32_t delta = it == rack_delta_.end() ? 0 : it->second;
  return static_cast<uint32_t>(static_cast<int32_t>(view_.state().rack_free(rack)) + delta);
}

void Scratch::change(GpuId gpu, bool now_free) {
  assert(gpu_free(gpu) != now_free && "claiming a taken GPU or releasing a free one");
  gpu_free_[gpu.value()] = now_free;
  const NodeId node = view_.state().node_of(gpu);
  const int32_t step = now_free ? 1 : -1;
  auto [it, inserted] = node_delta_.try_emplace(node.value(), 0);
  it->second += step;
  if (inserted) {
    touched_.push_back(node);
  }
  rack_delta_[view_.cluster().nodes[node.value()].rack.value()] += step;
  free_ = static_cast<uint32_t>(static_cast<int32_t>(free_) + step);
}

void Scratch::forget_touched_since(size_t mark) {
  for (size_t i = mark; i < touched_.size(); ++i) {
    const auto it = node_delta_.find(touched_[i].value());
    assert(it != node_delta_.end() && it->second == 0 && "forgetting a node whose free count changed");
    node_delta_.erase(it);
  }
  touched_.resize(std::min(mark, touched_.size()));
}

void Scratch::claim(std::span<const GpuId> gpus) {
  for (GpuId g : gpus) {
    change(g, false);
  }
}

void Scratch::release(std::span<const GpuId> gpus) {
  for (GpuId g : gpus) {
    change(g, true);
  }
}

uint32_t Scratch::take_free_on_node(NodeId node, uint32_t count, std::vector<GpuId>& out) const {
  const Node& n = view_.cluster().nodes[node.value()];
  uint32_t taken = 0;
  for (uint32_t i = 0; i < n.gpu_count && taken < count; ++i) {
    const GpuId g(n.first_gpu + i);
    if (gpu_free(g)) {
      out.push_back(g);
      ++taken;
    }
  }
  return taken;
}

}  // namespace boreas::policy
