#pragma once
// The racks a start or stop touches, each once and in ascending order, as Physics refreshes them
// (the order fixes the sequence numbers of the rack events the refreshes push).

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"

namespace boreas::sim {

// Calls visit(rack) for each distinct rack_of[gpu] of these GPUs, in ascending order: what sorting
// and deduplicating the racks lists. When the racks never decrease along the list (GPU ids in
// order, the usual placement), skipping repeats lists them so without sorting or allocating;
// otherwise `racks` (the caller's, reused: no allocation once it is large enough) is sorted.
template <typename Visit>
void each_rack_once(std::span<const GpuId> gpus, const std::vector<uint32_t>& rack_of, Visit visit,
                    std::vector<uint32_t>& racks) {
  const auto rack = [&](size_t i) { return rack_of[gpus[i].value()]; };
  bool ascending = true;
  for (size_t i = 1; i < gpus.size() && ascending; ++i) {
    ascending = rack(i - 1) <= rack(i);
  }
  if (!ascending) {
    racks.clear();
    for (size_t i = 0; i < gpus.size(); ++i) {
      racks.push_back(rack(i));
    }
    std::sort(racks.begin(), racks.end());
    racks.erase(std::unique(racks.begin(), racks.end()), racks.end());
    std::for_each(racks.begin(), racks.end(), visit);
    return;
  }
  for (size_t i = 0; i < gpus.size(); ++i) {
    if (i == 0 || rack(i) != rack(i - 1)) {
      visit(rack(i));
    }
  }
}

}  // namespace boreas::sim
