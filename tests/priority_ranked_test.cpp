// The priority schedulers' running set (PriorityScheduler::FlatRanked: stale entries and appended
// ones tidied when read) equals a std::set kept by plain erase and insert, after random erases,
// inserts, re-inserts under the same or another key, and reads at random points.

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "policy/priority_scheduler.h"

namespace boreas {
namespace {

using Flat = policy::PriorityScheduler::FlatRanked;
using Ranked = policy::PriorityScheduler::Ranked;

TEST(FlatRankedProperty, EqualsASortedSetAfterRandomChanges) {
  constexpr uint32_t kJobs = 60;
  uint64_t reads = 0, same_key_back = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    Flat flat;
    flat.resize(kJobs);
    std::set<Ranked> reference;
    std::vector<std::optional<policy::SortKey>> key(kJobs);
    for (int step = 0; step < 2000; ++step) {
      const JobId job(static_cast<uint32_t>(rng() % kJobs));
      if (key[job.value()]) {
        reference.erase(Ranked{*key[job.value()], job});
        flat.erase(job);
        const policy::SortKey old = *key[job.value()];
        key[job.value()].reset();
        if (rng() % 3 == 0) {  // back at once, under the same key (as a demotion that did not move it)
          flat.insert(job, old);
          reference.insert(Ranked{old, job});
          key[job.value()] = old;
          same_key_back += 1;
        }
      } else {
        const policy::SortKey k{static_cast<double>(rng() % 5), static_cast<int64_t>(rng() % 3), 0};
        flat.insert(job, k);
        reference.insert(Ranked{k, job});
        key[job.value()] = k;
      }
      if (rng() % 7 == 0) {
        const std::vector<Ranked>& got = flat.items();
        ASSERT_EQ(got.size(), reference.size()) << "seed " << seed << " step " << step;
        ASSERT_TRUE(std::equal(got.begin(), got.end(), reference.begin(), [](const Ranked& a, const Ranked& b) {
          return a.job == b.job && a.key == b.key;
        })) << "seed " << seed << " step " << step;
        reads += 1;
      }
    }
  }
  EXPECT_GT(reads, 4000u);
  EXPECT_GT(same_key_back, 1000u);
}

}  // namespace
}  // namespace boreas
