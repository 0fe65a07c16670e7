// The `boreas` policy's ranking groups, kept from the state's journal with stale entries dropped
// and new ones merged in when ranked, equal groups built from scratch from the pending jobs after
// every round of random runs (arrivals, starts, preemptions, completions; two classes, a tree).

#include <gtest/gtest.h>

#include <random>

#include "config/cluster_spec.h"
#include "policy/boreas_policy.h"
#include "policy/placement.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

constexpr const char* kTree =
    "priority_classes:\n"
    "  - {name: high, value: 10}\n"
    "  - {name: low, value: 1}\n"
    "queues:\n"
    "  - {name: org, quotas: [{gpu: '*', guaranteed: 12}]}\n"
    "  - {name: t1, parent: org, quotas: [{gpu: '*', guaranteed: 6}]}\n"
    "  - {name: t2, parent: org, quotas: [{gpu: '*', guaranteed: 4}]}\n"
    "  - {name: x, quotas: [{gpu: '*', guaranteed: 8}]}\n";

struct Counts {
  uint64_t rounds = 0, preempted = 0, tidy_rounds = 0;
};

// Applies the plan as the engine does (preemptions, then starts) and ends some running jobs.
void apply(state::ClusterState& s, const policy::Plan& plan, Time now, std::mt19937& rng, Counts& counts) {
  for (JobId v : plan.preemptions) {
    ASSERT_TRUE(s.preempt(v, now).is_ok());
    counts.preempted += 1;
  }
  for (const policy::Start& st : plan.starts) {
    ASSERT_TRUE(s.start(st.job, st.gpus, now).is_ok());
  }
  std::vector<JobId> running(s.running().begin(), s.running().end());
  for (JobId j : running) {
    if (rng() % 5 == 0) {
      ASSERT_TRUE(s.finish(j, now).is_ok());
    }
  }
}

void run_checked(uint32_t seed, Counts& counts) {
  const Cluster cluster = testing::uniform_cluster(2, 2, 8);
  auto tree = config::load_queues_string(kTree, "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  const char* queues[] = {"org", "t1", "t2", "x", "z"};
  std::mt19937 rng(seed);
  testing::JobListBuilder jobs;
  for (int i = 0; i < 200; ++i) {
    jobs.add(i / 4, 1 + rng() % 8, 50, queues[rng() % 5]);
    jobs.jobs().back().priority_class = jobs.symbols().intern(rng() % 3 == 0 ? "high" : "low");
  }
  policy::TenancyOptions options;
  options.queues = std::make_shared<QueueTree>(*tree);
  options.preemption.min_runtime = Duration::zero();
  policy::BoreasScheduler scheduler(options, policy::make_pack_placement());
  state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
  for (int64_t t = 0; t < 120; ++t) {
    const Time now = Time::from_seconds(t);
    for (uint32_t j = 0; j < s.job_count(); ++j) {
      if (jobs.jobs()[j].submit == now) {
        ASSERT_TRUE(s.submit(JobId(j), now).is_ok());
      }
    }
    const state::ClusterView view(s, now);
    const policy::Plan plan = scheduler.schedule(view);
    const Status check = scheduler.check_rank_groups(view);
    ASSERT_TRUE(check.is_ok()) << "seed " << seed << " at " << t << " s: " << check.message();
    counts.rounds += 1;
    counts.tidy_rounds += s.pending().size() > 1 ? 1 : 0;
    apply(s, plan, now, rng, counts);
  }
}

TEST(BoreasRankProperty, GroupsEqualGroupsFromScratchOnRandomRuns) {
  Counts counts;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    run_checked(seed, counts);
  }
  EXPECT_EQ(counts.rounds, 20u * 120u);
  EXPECT_GT(counts.tidy_rounds, 1000u);  // rounds with jobs waiting: the groups had something to hold
  EXPECT_GT(counts.preempted, 0u);       // preempted jobs came back into their groups
}

}  // namespace
}  // namespace boreas
