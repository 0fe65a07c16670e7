// Properties of the held jobs a lazy priority round leaves out of its arrays (gittins16):
// - KeptAbove::by_bound() lists exactly the held jobs as (bound, job), the last ranked first, and
//   gpus() is their GPUs, through random holds, holds of held jobs (a release and a hold) and clears;
//   released() lists every job let go.
// - RunningOrder::keyed_apart, round after round on a random journal of starts and stops, random
//   holds, clears and bars, lists every running job exactly once: as an item, or left out as held
//   with a bound before a bar, which is when KeptAbove::skips (the per-job test it replaces) skips it;
//   its `skipped` has the GPUs of those left out and, highest bound first, those left out against
//   the second bar only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <span>
#include <vector>

#include "policy/kept_above.h"
#include "policy/priority_scheduler.h"

namespace boreas {
namespace {

using policy::KeptAbove;
using policy::RankedJob;
using policy::SortKey;

constexpr size_t kJobs = 120;

// Bounds with few distinct first fields (gittins' bounds tie often) and ties beyond them.
SortKey random_bound(std::mt19937& rng) {
  return SortKey{-static_cast<double>(rng() % 5), static_cast<int64_t>(rng() % 2), static_cast<int64_t>(rng() % 2)};
}

RankedJob random_bar(std::mt19937& rng) {
  return RankedJob{SortKey{-static_cast<double>(rng() % 6) + 0.5 * static_cast<double>(rng() % 2),
                           static_cast<int64_t>(rng() % 2), static_cast<int64_t>(rng() % 3)},
                   JobId(static_cast<uint32_t>(rng() % kJobs))};
}

// The held jobs as KeptAbove must list them: (bound, job), the last ranked first.
std::vector<RankedJob> expected_by_bound(const std::map<uint32_t, std::pair<SortKey, uint32_t>>& held) {
  std::vector<RankedJob> out;
  for (const auto& [job, entry] : held) {
    out.push_back(RankedJob{entry.first, JobId(job), entry.second});
  }
  std::sort(out.begin(), out.end(), [](const RankedJob& a, const RankedJob& b) { return b < a; });
  return out;
}

void expect_lists(const KeptAbove& kept, const std::map<uint32_t, std::pair<SortKey, uint32_t>>& held) {
  const std::vector<RankedJob> want = expected_by_bound(held);
  const std::span<const RankedJob> got = kept.by_bound();
  ASSERT_EQ(got.size(), want.size());
  uint64_t gpus = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].job, want[i].job);
    EXPECT_EQ(got[i].key, want[i].key);
    EXPECT_EQ(got[i].gpus, want[i].gpus);
    gpus += want[i].gpus;
  }
  EXPECT_EQ(kept.gpus(), gpus);
  EXPECT_EQ(kept.size(), held.size());
}

TEST(KeptAboveProperty, ListsTheHeldJobsByBoundThroughHoldsAndClears) {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed);
    KeptAbove kept;
    kept.resize(kJobs);
    std::map<uint32_t, std::pair<SortKey, uint32_t>> held;
    for (int step = 0; step < 400; ++step) {
      if (rng() % 60 == 0) {
        kept.clear();
        std::set<uint32_t> released;
        for (JobId j : kept.released()) {
          released.insert(j.value());
        }
        for (const auto& [job, entry] : held) {
          EXPECT_TRUE(released.count(job) > 0) << "seed " << seed << " job " << job;
        }
        held.clear();
        kept.forget_released();
      } else {
        const auto job = static_cast<uint32_t>(rng() % kJobs);
        const SortKey bound = random_bound(rng);
        const auto gpus = static_cast<uint32_t>(1 + rng() % 8);
        kept.hold(JobId(job), bound, Time::from_micros(1000), gpus);  // a held job is let go first
        held[job] = {bound, gpus};
      }
      expect_lists(kept, held);
      for (uint32_t j = 0; j < kJobs; ++j) {
        EXPECT_EQ(kept.holds(JobId(j)), held.count(j) > 0);
      }
      if (testing::Test::HasFailure()) {
        ADD_FAILURE() << "seed " << seed << " step " << step;
        return;
      }
    }
  }
}

TEST(KeptAboveProperty, KeyedApartListsEveryRunningJobOnceAndSkipsAsTheBars) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> runs(kJobs, 0);
    std::vector<uint32_t> gpus(kJobs);
    for (uint32_t& g : gpus) {
      g = 1 + static_cast<uint32_t>(rng() % 8);
    }
    std::vector<JobId> journal;
    KeptAbove kept;
    kept.resize(kJobs);
    policy::PriorityScheduler::RunningOrder order;
    auto running = [&](JobId j) { return runs[j.value()] != 0; };
    auto gpus_of = [&](JobId j) { return gpus[j.value()]; };
    auto rekey = [](std::span<RankedJob> items) {
      for (RankedJob& r : items) {
        r.key = SortKey{static_cast<double>(r.job.value() % 7), 0, 0};
      }
    };
    for (int round = 0; round < 200; ++round) {
      // Starts and stops (a job stops only when not held: KeptAbove lets a stopped job go itself).
      for (int k = static_cast<int>(rng() % 6); k > 0; --k) {
        const JobId j(static_cast<uint32_t>(rng() % kJobs));
        if (!kept.holds(j)) {
          runs[j.value()] ^= 1;
          journal.push_back(j);
        }
      }
      if (rng() % 25 == 0) {
        kept.clear();
      }
      const RankedJob first = random_bar(rng);
      RankedJob second = random_bar(rng);
      if (second < first) {
        second = first;  // the second bar never ranks before the first
      }
      const KeptAbove::SkipBars bars{first, second};
      policy::PriorityScheduler::RunningOrder::Skipped skipped;
      const std::span<RankedJob> items =
          order.keyed_apart(std::span<const JobId>(journal), kJobs, running, gpus_of, rekey, kept, bars, skipped);
      // Every running job once: an item, or held and skipped.
      std::vector<int> seen(kJobs, 0);
      for (const RankedJob& r : items) {
        ++seen[r.job.value()];
        SortKey key;
        EXPECT_FALSE(kept.skips(r.job, bars, key)) << "an item the bars skip: job " << r.job.value();
        EXPECT_EQ(r.gpus, gpus[r.job.value()]);
        EXPECT_EQ(r.key, (SortKey{static_cast<double>(r.job.value() % 7), 0, 0}));
      }
      uint64_t skipped_gpus = 0;
      std::vector<RankedJob> seconds;
      for (uint32_t j = 0; j < kJobs; ++j) {
        SortKey key;
        if (runs[j] != 0 && kept.skips(JobId(j), bars, key)) {
          ++seen[j];
          skipped_gpus += gpus[j];
          if (key == KeptAbove::kSecond) {
            seconds.push_back(RankedJob{kept.bound(JobId(j)), JobId(j), gpus[j]});
          }
        }
        EXPECT_EQ(seen[j], runs[j] != 0 ? 1 : 0) << "job " << j;
      }
      EXPECT_EQ(skipped.gpus, skipped_gpus);
      std::sort(seconds.begin(), seconds.end(), [](const RankedJob& a, const RankedJob& b) { return b < a; });
      ASSERT_EQ(skipped.second.size(), seconds.size());
      for (size_t i = 0; i < seconds.size(); ++i) {
        EXPECT_EQ(skipped.second[i].job, seconds[i].job);
      }
      if (testing::Test::HasFailure()) {
        ADD_FAILURE() << "seed " << seed << " round " << round;
        return;
      }
      // Holds for the next round: running jobs, some held already (let go and held again).
      for (int k = static_cast<int>(rng() % 8); k > 0; --k) {
        const JobId j(static_cast<uint32_t>(rng() % kJobs));
        if (runs[j.value()] != 0) {
          kept.hold(j, random_bound(rng), Time::from_micros(1000), gpus[j.value()]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace boreas
