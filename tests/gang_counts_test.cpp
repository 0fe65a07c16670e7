// Property: GangCounts (sim/gang_counts.h; the meter's waiting gangs per class, output15) sums the
// GPUs of the gangs up to a limit as the std::map<size, count> it replaced did (a size erased when
// its count fell to 0): random adds and removes of waiting gangs (sizes that empty and come back,
// sizes up to 512), random limits below, on and above the sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "sim/gang_counts.h"

namespace boreas::sim {
namespace {

uint64_t map_sum(const std::map<uint32_t, uint64_t>& waiting, uint64_t limit) {
  uint64_t total = 0;
  for (auto it = waiting.begin(); it != waiting.end() && it->first <= limit; ++it) {
    total += it->first * it->second;
  }
  return total;
}

TEST(GangCountsProperty, SumsAsTheMapOfSizes) {
  std::mt19937_64 rng(15);
  for (int trial = 0; trial < 300; ++trial) {
    GangCounts counts;
    std::map<uint32_t, uint64_t> waiting;
    std::vector<uint32_t> pending;  // gangs waiting now
    const uint32_t largest = rng() % 2 == 0 ? 16 : 512;
    for (int step = 0; step < 2000; ++step) {
      if (!pending.empty() && rng() % 2 == 0) {
        const size_t k = rng() % pending.size();
        const uint32_t gpus = pending[k];
        pending[k] = pending.back();
        pending.pop_back();
        counts.remove(gpus);
        if (--waiting[gpus] == 0) {
          waiting.erase(gpus);
        }
      } else {
        const uint32_t gpus = 1 + static_cast<uint32_t>(rng() % largest);
        pending.push_back(gpus);
        counts.add(gpus);
        ++waiting[gpus];
      }
      const uint64_t limit = rng() % (largest + 2);
      ASSERT_EQ(counts.gpus_up_to(limit), map_sum(waiting, limit)) << "trial " << trial << ", step " << step;
    }
  }
}

}  // namespace
}  // namespace boreas::sim
