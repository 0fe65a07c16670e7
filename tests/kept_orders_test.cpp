// What the policies keep across rounds equals the same computed from scratch:
// PriorityScheduler::RunningOrder (last round's order re-keyed and settled) equals a full sort of
// the running jobs under drifting keys, GittinsTable's cursor gives index() bit for bit as
// attained service grows or is lost, caps move and the table refreshes, and easy-backfill's
// PendingList walks exactly the state's pending set.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <random>

#include "policy/gittins.h"
#include "policy/priority_scheduler.h"
#include "policy/queue_scheduler_pending.h"
#include "policy/service_orders.h"
#include "state/cluster_state.h"
#include "support/cluster_builder.h"

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

// The order follows the state's journal: each round one job starts or stops; the journal also
// lists jobs whose state did not change in the end (listed twice, or stopped and started again)
// and jobs that never ran, and some rounds are skipped (a round that ranks no running job).
TEST(RunningOrderProperty, EqualsAFullSortUnderDriftingKeys) {
  constexpr uint32_t kJobs = 80;
  uint64_t rounds = 0, crossed = 0, left = 0;
  auto gpus = [](JobId j) { return j.value() % 8 + 1; };
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    policy::PriorityScheduler::RunningOrder order;
    std::vector<double> key(kJobs), rate(kJobs);
    std::vector<uint8_t> runs(kJobs, 0);
    std::vector<JobId> journal;
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
      runs[job.value()] ^= 1;
      left += runs[job.value()] == 0 ? 1 : 0;
      journal.push_back(job);
      if (rng() % 4 == 0) {  // listed again, or a job listed that ends where it was
        journal.push_back(JobId(static_cast<uint32_t>(rng() % kJobs)));
      }
      if (rng() % 3 == 0) {
        continue;  // no ranking this round: the next one reads both rounds' entries
      }
      std::vector<Ranked> expected;
      for (uint32_t j = 0; j < kJobs; ++j) {
        if (runs[j]) {
          expected.push_back(Ranked{policy::SortKey{key[j], 0, 0}, JobId(j)});
        }
      }
      std::sort(expected.begin(), expected.end());
      const std::vector<Ranked>& got = order.rank(
          journal, kJobs, [&](JobId j) { return runs[j.value()] != 0; }, gpus, [&](std::span<Ranked> items) {
            for (Ranked& r : items) {
              r.key = policy::SortKey{key[r.job.value()], 0, 0};
            }
          });
      ASSERT_EQ(got.size(), expected.size()) << "seed " << seed << " round " << round;
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i].job, expected[i].job) << "seed " << seed << " round " << round << " rank " << i;
        ASSERT_EQ(got[i].key, expected[i].key) << "seed " << seed << " round " << round << " rank " << i;
        ASSERT_EQ(got[i].gpus, gpus(got[i].job)) << "seed " << seed << " round " << round << " rank " << i;
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
  EXPECT_GT(left, 1000u);
  EXPECT_GT(rounds, 20u * 150u);
  EXPECT_GT(crossed, 500u);  // rounds where the drift reordered jobs that kept running
}

// A run of GittinsTable reads: samples arrive (one every `sample_every` reads, up to
// `sample_max`), random jobs gain service in small or large steps, or lose it (one read in
// `reset_one_in`), and move down a queue at each ceiling (`ceiling_step` apart, the last queue
// past `last_ceiling`); each read through the job's cursor must equal the index from scratch.
struct CursorRun {
  int64_t sample_max;
  int sample_every;
  uint32_t reset_one_in;
  int64_t small_step;
  int64_t large_step;
  int64_t ceiling_step;
  int64_t last_ceiling;
  int64_t sample_grain = 1;  // samples are multiples of it: > 1 gives runs of equal samples
  uint64_t refreshes = 0;
  uint64_t kept = 0;   // reads where the cursor's positions did not move
  uint64_t moved = 0;  // reads where one moved, or the cursor started over

  void run(uint32_t seed) {
    std::mt19937 rng(seed);
    policy::GittinsTable table;
    constexpr uint32_t kJobs = 30;
    std::vector<policy::GittinsTable::Cursor> cursor(kJobs);
    std::vector<int64_t> attained(kJobs, 0), ceiling(kJobs, ceiling_step);
    for (int step = 0; step < 3000; ++step) {
      if (step % sample_every == 0) {
        table.add(static_cast<int64_t>(rng() % sample_max) / sample_grain * sample_grain);
        refreshes += table.refresh() ? 1 : 0;
      }
      const uint32_t j = rng() % kJobs;
      const uint32_t what = rng() % reset_one_in;
      if (what == 0) {  // preempted with its work lost, or a new job in the slot
        attained[j] = static_cast<int64_t>(rng() % ceiling_step);
      } else {
        attained[j] += static_cast<int64_t>(rng() % (what % 2 == 0 ? small_step : large_step));
      }
      while (ceiling[j] >= 0 && attained[j] >= ceiling[j]) {  // demoted: the next ceiling, or the last queue
        ceiling[j] = ceiling[j] >= last_ceiling ? -1 : ceiling[j] + ceiling_step;
      }
      const int64_t delta = ceiling[j] < 0 ? std::numeric_limits<int64_t>::max() / 4 : ceiling[j] - attained[j];
      const policy::GittinsTable::Cursor before = cursor[j];
      const double expected = table.index(attained[j], delta);
      const double got = table.index(attained[j], delta, cursor[j]);
      ASSERT_EQ(got, expected) << "seed " << seed << " step " << step << " job " << j;
      const bool same = before.version == cursor[j].version && before.lo == cursor[j].lo && before.hi == cursor[j].hi;
      (same ? kept : moved) += 1;
    }
  }
};

// A dense table (samples closer than the jobs' steps): the positions move on most reads, often
// by many samples (the gallop).
TEST(GittinsCursorProperty, EqualsTheIndexFromScratch) {
  CursorRun run{400, 1, 20, 3, 40, 50, 200};
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    run.run(seed);
  }
  EXPECT_EQ(run.kept + run.moved, 20u * 3000u);
  EXPECT_GT(run.refreshes, 100u);  // the table grew under the cursors
}

// A sparse table (samples far apart next to the jobs' steps): most reads find neither position
// moved and use the sum the cursor kept; the last queue's cap grows with every read.
TEST(GittinsCursorProperty, KeptPositionsGiveTheIndexFromScratch) {
  CursorRun run{400'000, 4, 50, 300, 300, 50'000, 200'000};
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    run.run(seed);
  }
  EXPECT_GT(run.kept, 20'000u);  // most reads kept both positions
  EXPECT_GT(run.moved, 5'000u);
}

// Equal samples, as on Philly (82k completed GPU-times, 16k distinct): 40 distinct values among
// 3,000 samples, and jobs that step over several of them at once. The cursor walks the distinct
// values (GittinsTable::values_) and takes the count and sum below each from the full table.
TEST(GittinsCursorProperty, RunsOfEqualSamplesGiveTheIndexFromScratch) {
  CursorRun run{400'000, 1, 50, 3'000, 30'000, 50'000, 200'000, 10'000};
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    run.run(seed);
  }
  EXPECT_GT(run.kept, 10'000u);
  EXPECT_GT(run.moved, 10'000u);
}

// GittinsTable::floor_from: after a read through a job's cursor, the plain index at every attained
// service from there up to the floor's end (each distinct sample in the stretch, the service just
// below it, the stretch's last microsecond and random points) is at or above the floor, and the
// floor is at or above the bar it was asked for. `base` lifts every sample (1e17: the service
// rounds to ≤ 0 just below a sample, where the index drops to 0).
struct FloorRun {
  int64_t base;
  int64_t spread;
  int64_t grain;
  uint64_t floors = 0;   // reads that gave a floor
  uint64_t checked = 0;  // attained services checked against one

  void check(const policy::GittinsTable& table, int64_t from, int64_t until, int64_t ceiling, double floor,
             std::mt19937_64& rng) {
    auto index_at = [&](int64_t a) {
      const int64_t delta = ceiling < 0 ? policy::GittinsTable::kUncapped : std::max<int64_t>(ceiling - a, 1);
      return const_cast<policy::GittinsTable&>(table).index(a, delta);
    };
    std::vector<int64_t> points{from, until - 1};
    for (int i = 0; i < 40; ++i) {
      points.push_back(from + static_cast<int64_t>(rng() % static_cast<uint64_t>(until - from)));
    }
    for (int64_t v = (from / grain + 1) * grain; v < until && points.size() < 400; v += grain) {
      points.push_back(v);
      points.push_back(v - 1);
    }
    for (int64_t a : points) {
      if (a >= from && a < until) {
        ASSERT_GE(index_at(a), floor) << "attained " << a << " from " << from << " until " << until;
        ++checked;
      }
    }
  }

  void run(uint32_t seed) {
    std::mt19937_64 rng(seed);
    policy::GittinsTable table;
    for (int i = 0; i < 2000; ++i) {
      table.add(base + static_cast<int64_t>(rng() % static_cast<uint64_t>(spread)) / grain * grain);
    }
    ASSERT_TRUE(table.refresh());
    const int64_t ceilings[] = {-1, base + spread / 3, base + spread / 2, base + 2 * spread};
    for (int read = 0; read < 300; ++read) {
      const int64_t ceiling = ceilings[rng() % 4];
      const int64_t top = ceiling < 0 ? base + spread + spread / 4 : ceiling;
      const int64_t attained = static_cast<int64_t>(rng() % static_cast<uint64_t>(top));
      const int64_t delta = ceiling < 0 ? policy::GittinsTable::kUncapped : ceiling - attained;
      policy::GittinsTable::Cursor cursor;
      const double index = table.index(attained, delta, cursor);
      // bars at, below and far below the job's index: short stretches and long ones
      const double bar = std::array<double, 4>{index, index * 0.9, index * 0.3, 0}[rng() % 4];
      const auto floor = table.floor_from(cursor, ceiling, bar);
      if (!floor) {
        continue;
      }
      ++floors;
      ASSERT_GE(floor->index, bar);
      ASSERT_GT(floor->until, attained);
      ASSERT_LE(floor->until, ceiling < 0 ? std::numeric_limits<int64_t>::max() : ceiling);
      const int64_t until = std::min(floor->until, top + spread);
      check(table, attained, until, ceiling, floor->index, rng);
    }
  }
};

TEST(GittinsFloorProperty, TheIndexStaysAboveTheFloorOnADenseTable) {
  FloorRun run{0, 1'000'000, 1};
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    run.run(seed);
  }
  EXPECT_GT(run.floors, 1'000u);
  EXPECT_GT(run.checked, 100'000u);
}

TEST(GittinsFloorProperty, TheIndexStaysAboveTheFloorOverRunsOfEqualSamples) {
  FloorRun run{0, 1'000'000, 25'000};
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    run.run(seed);
  }
  EXPECT_GT(run.floors, 1'000u);
  EXPECT_GT(run.checked, 50'000u);
}

// Samples near 1e17: the service rounds to ≤ 0 just below some samples (index 0 there).
TEST(GittinsFloorProperty, TheIndexStaysAboveTheFloorWhereTheServiceRoundsToZero) {
  FloorRun run{100'000'000'000'000'000, 10'000, 1};
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    run.run(seed);
  }
  EXPECT_GT(run.floors, 500u);
  EXPECT_GT(run.checked, 50'000u);
}

// One random change to the state: a job submitted (in shuffled id order), started on free GPUs,
// preempted (it waits again), finished or requeued. Returns false when the change drawn had no job.
bool change_once(state::ClusterState& s, std::vector<JobId>& unsubmitted, Time now, std::mt19937& rng) {
  std::vector<JobId> running(s.running().begin(), s.running().end());
  std::vector<JobId> pending(s.pending().begin(), s.pending().end());
  switch (rng() % 5) {
    case 0:
      if (unsubmitted.empty()) {
        return false;
      }
      EXPECT_TRUE(s.submit(unsubmitted.back(), now).is_ok());
      unsubmitted.pop_back();
      return true;
    case 1: {
      if (pending.empty()) {
        return false;
      }
      const JobId j = pending[rng() % pending.size()];
      std::vector<GpuId> gpus;
      for (uint32_t g = 0; g < s.total_gpus() && gpus.size() < s.spec(j).gpus; ++g) {
        if (s.gpu_free(GpuId(g))) {
          gpus.push_back(GpuId(g));
        }
      }
      return gpus.size() == s.spec(j).gpus && s.start(j, gpus, now).is_ok();
    }
    case 2:
      return !running.empty() && s.preempt(running[rng() % running.size()], now).is_ok();
    case 3:
      return !running.empty() && s.finish(running[rng() % running.size()], now).is_ok();
    default:
      return !running.empty() && s.requeue(running[rng() % running.size()], now).is_ok();
  }
}

// attained_below_until_us against ClusterState::work_done_at's own count: at the last µs before the
// time it gives, the attained service is still below the target, and the time is at most
// 1 / rate + 2 µs before the first µs at which it is reached (found by a search over the same count), on random
// segments at rates around and away from 1 (0.05 … 3, some exactly 1) and targets up to hours out.
TEST(AttainedBelowProperty, EndsNoLaterThanTheCountReachesTheTarget) {
  std::mt19937_64 rng(7);
  auto attained = [](int64_t work_us, int64_t ran_us, int64_t gpus, double rate) {
    const int64_t done = rate == 1.0 ? ran_us : std::llround(static_cast<double>(ran_us) * rate);
    return (work_us + done) * gpus;
  };
  int64_t exact = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    const int64_t gpus = std::array<int64_t, 5>{1, 2, 3, 8, 64}[rng() % 5];
    const double rate = rng() % 4 == 0 ? 1.0 : 0.05 + static_cast<double>(rng() % 2951) / 1000.0;
    const int64_t start = static_cast<int64_t>(rng() % 1'000'000'000);
    const int64_t work = static_cast<int64_t>(rng() % 10'000'000);
    const int64_t target = work * gpus + 1 + static_cast<int64_t>(rng() % (rng() % 2 ? 1000 : 10'000'000'000));
    const int64_t until = policy::attained_below_until_us(start, Duration::micros(work), target, gpus, rate);
    ASSERT_GE(until, start);
    if (until > start) {
      ASSERT_LT(attained(work, until - 1 - start, gpus, rate), target) << trial;
    }
    int64_t lo = 0;  // the first ran with the target reached: attained is monotone in ran
    int64_t hi = 4'000'000'000'000;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (attained(work, mid, gpus, rate) >= target) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    ASSERT_LE(static_cast<double>(start + lo - until), 2 + 1 / rate) << trial;
    if (rate == 1.0) {
      ASSERT_EQ(until, start + lo) << trial;  // exact at rate 1
      ++exact;
    }
  }
  EXPECT_GT(exact, 40000);  // a quarter of the trials run at rate 1
}

TEST(PendingListProperty, WalksThePendingSetAfterEveryChange) {
  uint64_t checks = 0, rejoined = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    const Cluster cluster = testing::uniform_cluster(1, 2, 8);
    testing::JobListBuilder jobs;
    for (int i = 0; i < 120; ++i) {
      jobs.add(0, 1 + rng() % 3, 100);
    }
    state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
    std::vector<JobId> unsubmitted;
    for (uint32_t j = 0; j < 120; ++j) {
      unsubmitted.push_back(JobId(j));
    }
    std::shuffle(unsubmitted.begin(), unsubmitted.end(), rng);
    policy::PendingList list;
    for (int step = 0; step < 500; ++step) {
      const Time now = Time::from_seconds(step);
      const uint32_t changes = rng() % 4;  // several changes between two reads, or none
      for (uint32_t c = 0; c < changes; ++c) {
        const uint64_t before = s.pending().size();
        rejoined += change_once(s, unsubmitted, now, rng) && s.pending().size() > before ? 1 : 0;
      }
      list.sync(state::ClusterView(s, now));
      std::vector<JobId> walked;
      list.walk([&](JobId j) {
        walked.push_back(j);
        return true;
      });
      const std::vector<JobId> expected(s.pending().begin(), s.pending().end());
      ASSERT_EQ(walked, expected) << "seed " << seed << " step " << step;
      checks += 1;
    }
  }
  EXPECT_EQ(checks, 20u * 500u);
  EXPECT_GT(rejoined, 1000u);  // submits and jobs waiting again: entries in and out of id order
}

}  // namespace
}  // namespace boreas
