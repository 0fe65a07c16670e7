// The priority schedulers' running set (PriorityScheduler::FlatRanked: stale entries and appended
// ones tidied when read) equals a std::set kept by plain erase and insert, after random erases,
// inserts, re-inserts under the same or another key, and reads at random points.

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "policy/priority_scheduler.h"
#include "support/cluster_builder.h"
#include "support/sim_run.h"

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

// The walk takes the GPUs of running jobs it may not preempt out of its budget up front (skipped
// only while every job is preemptible). One 4-GPU node under srtf: A (non-preemptible, 2 GPUs,
// 100 s) and C (2 GPUs, 100 s) run from 0; B (4 GPUs, 5 s) arrives at 10 with the shortest
// remaining time. The budget left by A is 2 GPUs, so B is not granted and C is not preempted: B
// runs 100–105. With A preemptible both are preempted and B runs 10–15.
TEST(PriorityWalk, KeepsNonPreemptibleJobsOutOfTheBudget) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  for (const bool kept : {true, false}) {
    testing::JobListBuilder jobs;
    jobs.add(0, 2, 100).add(0, 2, 100).add(10, 4, 5);
    jobs.jobs()[0].preemptible = !kept;
    auto out = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, "srtf");
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    EXPECT_EQ(out->result.jobs[2].end, Time::from_seconds(kept ? 105 : 15)) << kept;
    EXPECT_EQ(out->result.jobs[1].preemptions, kept ? 0u : 1u) << kept;
    EXPECT_EQ(out->result.jobs[0].preemptions, kept ? 0u : 1u) << kept;
  }
}

}  // namespace
}  // namespace boreas
