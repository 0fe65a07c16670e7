#pragma once
// A scratch overlay on a ClusterView for one scheduling round: GPUs claimed or released earlier
// in the same Plan are seen by later placements, without copying per-GPU state.

#include <span>
#include <unordered_map>
#include <vector>

#include "state/cluster_view.h"

namespace boreas::policy {

class Scratch {
 public:
  explicit Scratch(const state::ClusterView& view) : view_(view), free_(view.free_gpus()) {}

  const state::ClusterView& view() const { return view_; }
  uint32_t total_free() const { return free_; }
  bool gpu_free(GpuId gpu) const;
  uint32_t node_free(NodeId node) const;
  uint32_t rack_free(RackId rack) const;
  bool touched(NodeId node) const { return node_delta_.count(node.value()) > 0; }
  // Nodes whose free count differs from the state's, in first-touch order.
  std::span<const NodeId> touched_nodes() const { return touched_; }

  // Forgets that the nodes touched after the first `mark` were touched; each must be back at the
  // state's free count (GPUs released and claimed again), as if never touched.
  void forget_touched_since(size_t mark);

  void claim(std::span<const GpuId> gpus);
  void release(std::span<const GpuId> gpus);
  // Appends up to `count` free GPUs of `node` to `out`, lowest index first; returns how many.
  uint32_t take_free_on_node(NodeId node, uint32_t count, std::vector<GpuId>& out) const;

 private:
  void change(GpuId gpu, bool now_free);

  const state::ClusterView& view_;
  uint32_t free_;
  std::unordered_map<uint32_t, bool> gpu_free_;  // overrides of the state's free flag
  std::unordered_map<uint32_t, int32_t> node_delta_;
  std::unordered_map<uint32_t, int32_t> rack_delta_;
  std::vector<NodeId> touched_;
};

}  // namespace boreas::policy
