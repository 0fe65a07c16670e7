// `boreas serve` builds a fresh ClusterState every round and asks the same scheduler object about
// it. A scheduler that keeps structures across rounds (sorted sets fed from the state's journal)
// must notice the new state and start over, or it decides from the previous round's jobs.

#include <gtest/gtest.h>

#include "policy/registry.h"
#include "state/cluster_state.h"
#include "state/cluster_view.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

std::vector<JobId> started(const policy::Plan& plan) {
  std::vector<JobId> out;
  for (const policy::Start& s : plan.starts) {
    out.push_back(s.job);
  }
  return out;
}

// Three whole-node jobs on one 4-GPU node. Round 1 starts job 0; by round 2 it has finished and
// the rebuilt state holds only jobs 1 and 2, waiting: job 1 must start.
TEST(RebuiltState, EveryPolicyStartsOverOnANewState) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 100).add(0, 4, 100).add(0, 4, 100);
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  for (const std::string& name : registry.policy_names()) {
    SCOPED_TRACE(name);
    auto scheduler = registry.make(name, policy::PolicyOptions{});
    ASSERT_TRUE(scheduler.is_ok());
    state::ClusterState first(cluster, jobs.jobs(), jobs.symbols());
    for (uint32_t j = 0; j < 3; ++j) {
      ASSERT_TRUE(first.submit(JobId(j), Time()).is_ok());
    }
    EXPECT_EQ(started((*scheduler)->schedule(state::ClusterView(first, Time()))), std::vector<JobId>{JobId(0)});

    state::ClusterState second(cluster, jobs.jobs(), jobs.symbols());
    ASSERT_TRUE(second.submit(JobId(1), Time()).is_ok());
    ASSERT_TRUE(second.submit(JobId(2), Time()).is_ok());
    const Time later = Time() + Duration::seconds(100);
    EXPECT_EQ(started((*scheduler)->schedule(state::ClusterView(second, later))), std::vector<JobId>{JobId(1)});
  }
}

}  // namespace
}  // namespace boreas
