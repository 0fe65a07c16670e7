#pragma once
// Waiting jobs of one class counted by gang size, for the meter's idle-while-waiting bound: a flat
// list of (size, count) sorted by size, where a size whose count falls to 0 stays (it adds 0 to
// every sum). It replaces a std::map<size, count> that erased a size when its count fell to 0 and
// allocated a node when it came back: a binary search over a few sizes in one cache line instead.

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace boreas::sim {

class GangCounts {
 public:
  void add(uint32_t gpus) { ++count_of(gpus); }
  void remove(uint32_t gpus) { --count_of(gpus); }
  // Σ size × count over the sizes up to `limit`: the GPUs of the waiting gangs that fit it.
  uint64_t gpus_up_to(uint64_t limit) const {
    uint64_t total = 0;
    for (auto it = counts_.begin(); it != counts_.end() && it->first <= limit; ++it) {
      total += it->first * it->second;
    }
    return total;
  }

 private:
  uint64_t& count_of(uint32_t gpus) {
    auto it = std::lower_bound(counts_.begin(), counts_.end(), gpus,
                               [](const std::pair<uint32_t, uint64_t>& c, uint32_t g) { return c.first < g; });
    if (it == counts_.end() || it->first != gpus) {
      it = counts_.insert(it, {gpus, 0});
    }
    return it->second;
  }

  std::vector<std::pair<uint32_t, uint64_t>> counts_;  // by size, ascending
};

}  // namespace boreas::sim
