#include "policy/round_free.h"

#include <algorithm>

namespace boreas::policy {

RoundFree round_free(const state::ClusterView& view) {
  RoundFree out;
  round_free(view, out);
  return out;
}

void round_free(const state::ClusterView& view, RoundFree& out) {
  out.largest_block = 0;
  out.by_type.assign(view.cluster().catalog.size(), 0);
  const state::FreeIndex& index = view.state().free_index();
  for (uint32_t t = 0; t < index.type_count(); ++t) {
    const GpuTypeId type(t);
    for (uint32_t free = 1; free <= index.max_free(type); ++free) {
      const size_t nodes = index.nodes_with(type, free).size();
      if (nodes == 0) {
        continue;
      }
      out.largest_block = std::max(out.largest_block, free);
      if (t < out.by_type.size()) {
        out.by_type[t] += static_cast<uint64_t>(free) * nodes;
      }
    }
  }
}

}  // namespace boreas::policy
