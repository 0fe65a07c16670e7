#include "state/free_index.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace boreas::state {

namespace {
constexpr uint32_t kNoType = std::numeric_limits<uint32_t>::max();
}  // namespace

FreeIndex::FreeIndex(const Cluster& cluster)
    : pos_(cluster.nodes.size(), 0), type_of_(cluster.nodes.size(), kNoType) {
  size_t types = cluster.catalog.size();
  for (const auto& n : cluster.nodes) {
    if (n.gpu_type) {
      types = std::max<size_t>(types, n.gpu_type->value() + 1);
    }
  }
  buckets_.resize(types);
  for (uint32_t i = 0; i < cluster.nodes.size(); ++i) {
    const Node& n = cluster.nodes[i];
    if (!n.gpu_type || n.gpu_count == 0) {
      continue;
    }
    auto& by_free = buckets_[n.gpu_type->value()];
    if (by_free.size() <= n.gpu_count) {
      by_free.resize(n.gpu_count + 1);
    }
    type_of_[i] = n.gpu_type->value();
    pos_[i] = static_cast<uint32_t>(by_free[n.gpu_count].size());
    by_free[n.gpu_count].push_back(NodeId(i));
  }
}

void FreeIndex::update(NodeId node, uint32_t old_free, uint32_t new_free) {
  const uint32_t type = type_of_[node.value()];
  if (type == kNoType || old_free == new_free) {
    return;
  }
  auto& from = buckets_[type][old_free];
  const uint32_t at = pos_[node.value()];
  assert(at < from.size() && from[at] == node);
  // Swap-remove keeps the update O(1); the moved node's position is patched.
  from[at] = from.back();
  pos_[from[at].value()] = at;
  from.pop_back();
  auto& to = buckets_[type][new_free];
  pos_[node.value()] = static_cast<uint32_t>(to.size());
  to.push_back(node);
}

std::span<const NodeId> FreeIndex::nodes_with(GpuTypeId type, uint32_t free) const {
  if (type.value() >= buckets_.size() || free >= buckets_[type.value()].size()) {
    return {};
  }
  return buckets_[type.value()][free];
}

uint32_t FreeIndex::max_free(GpuTypeId type) const {
  if (type.value() >= buckets_.size() || buckets_[type.value()].empty()) {
    return 0;
  }
  return static_cast<uint32_t>(buckets_[type.value()].size() - 1);
}

}  // namespace boreas::state
