// Property: the racks a start or stop touches (sim/rack_order.h, used by Physics::touch_racks) come
// out as sorting and deduplicating them lists them: each once, ascending, whatever the GPU order.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "sim/rack_order.h"

namespace boreas {
namespace {

std::vector<uint32_t> sorted_unique(const std::vector<GpuId>& gpus, const std::vector<uint32_t>& rack_of) {
  std::vector<uint32_t> racks;
  for (GpuId g : gpus) {
    racks.push_back(rack_of[g.value()]);
  }
  std::sort(racks.begin(), racks.end());
  racks.erase(std::unique(racks.begin(), racks.end()), racks.end());
  return racks;
}

// GPU lists in order (the fast path), shuffled (the sorting path) and with repeats, over racks of
// 8–64 GPUs whose numbers rise with the GPU ids, or not.
TEST(RackOrderProperty, EachRackOnceListsTheSortedDistinctRacks) {
  std::mt19937_64 rng(7);
  std::vector<uint32_t> scratch;  // one list for every trial, as Physics reuses its own
  for (int trial = 0; trial < 2000; ++trial) {
    const uint32_t per_rack = 8u << (rng() % 4);
    const uint32_t racks = 1 + static_cast<uint32_t>(rng() % 6);
    std::vector<uint32_t> rack_of(per_rack * racks);
    std::vector<uint32_t> numbers(racks);
    for (uint32_t r = 0; r < racks; ++r) {
      numbers[r] = r;
    }
    if (trial % 3 == 0) {
      std::shuffle(numbers.begin(), numbers.end(), rng);
    }
    for (uint32_t g = 0; g < rack_of.size(); ++g) {
      rack_of[g] = numbers[g / per_rack];
    }
    std::vector<GpuId> gpus;
    const size_t n = 1 + rng() % rack_of.size();
    for (size_t i = 0; i < n; ++i) {
      gpus.push_back(GpuId(static_cast<uint32_t>(rng() % rack_of.size())));
    }
    if (trial % 2 == 0) {
      std::sort(gpus.begin(), gpus.end());
    }
    std::vector<uint32_t> visited;
    sim::each_rack_once(gpus, rack_of, [&](uint32_t r) { visited.push_back(r); }, scratch);  // reused
    ASSERT_EQ(visited, sorted_unique(gpus, rack_of)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace boreas
