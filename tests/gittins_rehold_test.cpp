// Gittins' lazy walk against the walk that sorts every running job, on runs where many small jobs
// run at once and the first waiting job's rank moves up and down: held jobs keyed under a higher
// first waiting job than the one they were held against are held again (hold_above, gittins17).
// Every run of every job, each job's preemptions and the number of rounds must be the same.

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <random>
#include <string>

#include "policy/priority_scheduler.h"
#include "policy/registry.h"
#include "sim/run.h"
#include "support/cluster_builder.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

// The registry's policies plus gittins-sorted: gittins under the plain walk.
policy::PolicyRegistry with_sorted_gittins() {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  (void)registry.add_policy(
      "gittins-sorted", "", [](const policy::PolicyOptions& o, std::unique_ptr<policy::Placement> p) {
        return std::make_unique<policy::PriorityScheduler>("sorted", policy::make_gittins_order(o.service),
                                                           std::move(p), std::make_unique<policy::AdmitAll>(), 0,
                                                           true);
      });
  return registry;
}

// `jobs` jobs, mostly 1–2 GPUs, heavy-tailed durations, arriving in bursts and lulls.
testing::JobListBuilder random_jobs(uint32_t seed, int jobs) {
  std::mt19937 rng(seed);
  testing::JobListBuilder list;
  int64_t at = 0;
  for (int i = 0; i < jobs; ++i) {
    at += rng() % 6 == 0 ? static_cast<int64_t>(rng() % 1500) : static_cast<int64_t>(rng() % 20);
    const uint32_t gpus = std::array<uint32_t, 6>{1, 1, 1, 2, 2, 4}[rng() % 6];
    const int64_t duration = rng() % 4 == 0 ? 3000 + static_cast<int64_t>(rng() % 40000)
                                            : 5 + static_cast<int64_t>(rng() % 900);
    list.add(at, gpus, duration);
  }
  return list;
}

TEST(GittinsReholdProperty, LazyWalkDecidesAsTheSortedWalkWithManySmallJobs) {
  const Cluster cluster = testing::uniform_cluster(1, 4, 8);
  const policy::PolicyRegistry registry = with_sorted_gittins();
  uint64_t preemptions = 0;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    testing::JobListBuilder jobs = random_jobs(seed, 400);
    sim::RunRequest req;
    req.cluster = &cluster;
    req.jobs = jobs.jobs();
    req.symbols = &jobs.symbols();
    req.policy = "gittins";
    auto lazy = sim::run_policy(registry, req);
    req.policy = "gittins-sorted";
    auto sorted = sim::run_policy(registry, req);
    ASSERT_TRUE(lazy.is_ok() && sorted.is_ok());
    const std::string where = "seed " + std::to_string(seed);
    ASSERT_EQ(lazy->result.rounds, sorted->result.rounds) << where;
    ASSERT_EQ(lazy->result.runs.size(), sorted->result.runs.size()) << where;
    for (size_t i = 0; i < lazy->result.runs.size(); ++i) {
      const sim::RunRecord& a = lazy->result.runs[i];
      const sim::RunRecord& b = sorted->result.runs[i];
      ASSERT_TRUE(a.job == b.job && a.start == b.start && a.end == b.end && a.end_state == b.end_state)
          << where << " run " << i;
    }
    for (size_t j = 0; j < lazy->result.jobs.size(); ++j) {
      ASSERT_EQ(lazy->result.jobs[j].preemptions, sorted->result.jobs[j].preemptions) << where << " job " << j;
      preemptions += lazy->result.jobs[j].preemptions;
    }
  }
  EXPECT_GT(preemptions, 1000u);  // the order below a grant decided something
}

}  // namespace
}  // namespace boreas
