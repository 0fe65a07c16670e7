// What the preemptive policies keep across rounds equals the same computed from scratch:
// PriorityScheduler::RunningOrder (last round's order re-keyed and settled) equals a full sort of
// the running jobs under drifting keys, and GittinsTable's cursor gives index() bit for bit as
// attained service grows or is lost, caps move and the table refreshes.

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "policy/gittins.h"
#include "policy/priority_scheduler.h"

namespace boreas {
namespace {

using Ranked = policy::PriorityScheduler::Ranked;

// The jobs of `order` that are also in `other`, in `order`'s order.
std::vector<JobId> kept_order(const std::vector<JobId>& order, const std::vector<JobId>& other) {
  std::vector<JobId> out;
  for (JobId j : order) {
    if (std::find(other.begin(), other.end(), j) != other.end()) {
      out.push_back(j);
    }
  }
  return out;
}

TEST(RunningOrderProperty, EqualsAFullSortUnderDriftingKeys) {
  constexpr uint32_t kJobs = 80;
  uint64_t rounds = 0, crossed = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    policy::PriorityScheduler::RunningOrder order;
    std::vector<double> key(kJobs), rate(kJobs);
    std::vector<JobId> running;
    std::vector<JobId> last;
    for (int round = 0; round < 300; ++round) {
      for (uint32_t j = 0; j < kJobs; ++j) {  // every key drifts down at its own rate; some jump
        key[j] -= rate[j];
        if (rng() % 50 == 0) {
          key[j] = static_cast<double>(rng() % 100);
          rate[j] = static_cast<double>(rng() % 3);
        }
      }
      const JobId job(static_cast<uint32_t>(rng() % kJobs));  // one job starts or stops
      auto at = std::find(running.begin(), running.end(), job);
      (at == running.end()) ? running.push_back(job) : (void)running.erase(at);
      std::shuffle(running.begin(), running.end(), rng);  // the state lists them in any order
      std::vector<Ranked> expected;
      for (JobId j : running) {
        expected.push_back(Ranked{policy::SortKey{key[j.value()], 0, 0}, j});
      }
      std::sort(expected.begin(), expected.end());
      const std::vector<Ranked>& got =
          order.rank(running, kJobs, [&](JobId j) { return policy::SortKey{key[j.value()], 0, 0}; });
      ASSERT_EQ(got.size(), expected.size()) << "seed " << seed << " round " << round;
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i].job, expected[i].job) << "seed " << seed << " round " << round << " rank " << i;
        ASSERT_EQ(got[i].key, expected[i].key) << "seed " << seed << " round " << round << " rank " << i;
      }
      std::vector<JobId> now_order;
      for (const Ranked& r : got) {
        now_order.push_back(r.job);
      }
      crossed += kept_order(last, now_order) != kept_order(now_order, last) ? 1 : 0;
      last = now_order;
      rounds += 1;
    }
  }
  EXPECT_EQ(rounds, 20u * 300u);
  EXPECT_GT(crossed, 500u);  // rounds where the drift reordered jobs that kept running
}

TEST(GittinsCursorProperty, EqualsTheIndexFromScratch) {
  uint64_t reads = 0, refreshes = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    policy::GittinsTable table;
    constexpr uint32_t kJobs = 30;
    std::vector<policy::GittinsTable::Cursor> cursor(kJobs);
    std::vector<int64_t> attained(kJobs, 0), ceiling(kJobs, 50);
    for (int step = 0; step < 3000; ++step) {
      table.add(static_cast<int64_t>(rng() % 400));
      refreshes += table.refresh() ? 1 : 0;
      const uint32_t j = rng() % kJobs;
      const uint32_t what = rng() % 20;
      if (what == 0) {  // preempted with its work lost, or a new job in the slot
        attained[j] = static_cast<int64_t>(rng() % 50);
      } else {
        attained[j] += static_cast<int64_t>(rng() % (what < 10 ? 3 : 40));
      }
      while (ceiling[j] >= 0 && attained[j] >= ceiling[j]) {  // demoted: the next ceiling, or the last queue
        ceiling[j] = ceiling[j] >= 200 ? -1 : ceiling[j] + 75;
      }
      const int64_t delta = ceiling[j] < 0 ? std::numeric_limits<int64_t>::max() / 4 : ceiling[j] - attained[j];
      const double expected = table.index(attained[j], delta);
      const double got = table.index(attained[j], delta, cursor[j]);
      ASSERT_EQ(got, expected) << "seed " << seed << " step " << step << " job " << j;
      reads += 1;
    }
  }
  EXPECT_EQ(reads, 20u * 3000u);
  EXPECT_GT(refreshes, 100u);  // the table grew under the cursors
}

}  // namespace
}  // namespace boreas
