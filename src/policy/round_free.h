#pragma once
// A round's free capacity read from the state's free index instead of a walk over every node, so
// a round costs the same on 512 and on 100,000 GPUs.

#include <cstdint>
#include <vector>

#include "state/cluster_view.h"

namespace boreas::policy {

struct RoundFree {
  std::vector<uint64_t> by_type;  // free GPUs in service, by GPU type id (catalog size)
  uint32_t largest_block = 0;     // most free GPUs on one node
};

// Sums each type's free-count buckets: O(types × GPUs per node). Nodes out of service sit in
// bucket 0, so they count for nothing, as in a walk that skips them.
RoundFree round_free(const state::ClusterView& view);
// The same into `out`, whose vector keeps its capacity (a caller that asks every round).
void round_free(const state::ClusterView& view, RoundFree& out);

}  // namespace boreas::policy
