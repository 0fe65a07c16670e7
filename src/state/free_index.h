#pragma once
// Nodes bucketed by free GPU count, per GPU type: best fit ("smallest node that still fits") is a
// walk over at most max-GPUs-per-node buckets instead of a scan of every node.

#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"
#include "core/topology.h"

namespace boreas::state {

class FreeIndex {
 public:
  // Every GPU node starts fully free. CPU-only nodes are not indexed.
  explicit FreeIndex(const Cluster& cluster);

  void update(NodeId node, uint32_t old_free, uint32_t new_free);
  // Nodes of GPU type `type` with exactly `free` free GPUs, in no particular (but deterministic) order.
  std::span<const NodeId> nodes_with(GpuTypeId type, uint32_t free) const;
  // Largest GPU count of any node of this type (the highest bucket).
  uint32_t max_free(GpuTypeId type) const;
  size_t type_count() const { return buckets_.size(); }

 private:
  std::vector<std::vector<std::vector<NodeId>>> buckets_;  // [type][free] -> nodes
  std::vector<uint32_t> pos_;                              // node -> index in its bucket
  std::vector<uint32_t> type_of_;                          // node -> type index (kNoType if CPU-only)
};

}  // namespace boreas::state
