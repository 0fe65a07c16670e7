// The incremental quota audit (usage and pending gangs kept from the state's journal, a merge over
// the queues with unused guarantee) equals the audit's definition counted from scratch (every
// running job, the whole pending set in arrival order) at every observation of random runs.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "config/cluster_spec.h"
#include "policy/quota_audit.h"
#include "support/cluster_builder.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

// Three levels, a root without children, and queue "z" the tree does not name.
constexpr const char* kTree =
    "queues:\n"
    "  - {name: org, quotas: [{gpu: '*', guaranteed: 10}]}\n"
    "  - {name: t1, parent: org, quotas: [{gpu: '*', guaranteed: 6}]}\n"
    "  - {name: p1, parent: t1, quotas: [{gpu: '*', guaranteed: 3}]}\n"
    "  - {name: p2, parent: t1, quotas: [{gpu: '*', guaranteed: 2}]}\n"
    "  - {name: t2, parent: org, quotas: [{gpu: '*', guaranteed: 3}]}\n"
    "  - {name: x, quotas: [{gpu: '*', guaranteed: 4}]}\n";

// Roots only (each counted alone: no merge runs), and queue "z" the tree does not name (quota17).
constexpr const char* kFlatTree =
    "queues:\n"
    "  - {name: a, quotas: [{gpu: '*', guaranteed: 6}]}\n"
    "  - {name: b, quotas: [{gpu: '*', guaranteed: 4}]}\n"
    "  - {name: c, quotas: [{gpu: '*', guaranteed: 3}]}\n"
    "  - {name: d, quotas: [{gpu: '*', guaranteed: 0}]}\n";

struct TreeCase {
  const char* tree;
  std::vector<const char*> queues;  // the jobs' queues, drawn at random
};

const TreeCase kNested{kTree, {"org", "t1", "p1", "p2", "t2", "x", "z"}};
const TreeCase kFlat{kFlatTree, {"a", "b", "c", "d", "z"}};

testing::JobListBuilder random_jobs(uint32_t seed, const std::vector<const char*>& queues) {
  const uint32_t sizes[] = {1, 1, 2, 2, 3, 4, 8};
  std::mt19937 rng(seed);
  testing::JobListBuilder jobs;
  int64_t t = 0;
  for (int i = 0; i < 150; ++i) {
    t += std::uniform_int_distribution<int64_t>(0, 3)(rng);
    jobs.add(t, sizes[rng() % 7], std::uniform_int_distribution<int64_t>(1, 40)(rng), queues[rng() % queues.size()]);
  }
  return jobs;
}

struct Checked {
  uint64_t observations = 0;
  uint64_t owed_observations = 0;  // where some gang was owed: the comparison had something to count
};

void run_checked(const TreeCase& tree_case, const std::string& policy, uint32_t seed, Checked& checked) {
  Cluster cluster = testing::uniform_cluster(1, 2, 8);
  auto tree = config::load_queues_string(tree_case.tree, "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  policy::QuotaAudit incremental(*tree, cluster), reference(*tree, cluster);
  auto observer = [&](const state::ClusterState& s, Time t) {
    incremental.observe(s, t);
    const uint64_t expected = reference.shortfall_from_scratch(s);
    ASSERT_EQ(incremental.shortfall_gpus(), expected) << policy << " seed " << seed << " at " << t.to_seconds();
    ++checked.observations;
    checked.owed_observations += expected > 0 ? 1 : 0;
  };
  policy::PolicyOptions options;
  options.tenancy.queues = std::make_shared<QueueTree>(*tree);  // a copy: the audits keep *tree
  testing::JobListBuilder jobs = random_jobs(seed, tree_case.queues);
  auto out = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, policy, options, {}, observer);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
}

TEST(QuotaAuditProperty, IncrementalEqualsFromScratchOnRandomRuns) {
  for (const std::string policy : {"fifo", "las", "boreas"}) {
    Checked checked;
    for (uint32_t seed = 1; seed <= 20; ++seed) {
      run_checked(kNested, policy, seed, checked);
    }
    EXPECT_GT(checked.observations, 1000u) << policy;
    if (policy != "boreas") {  // boreas keeps guarantees, so it rarely owes
      EXPECT_GT(checked.owed_observations, 50u) << policy;  // the runs did owe gangs
    }
  }
}

// A tree of roots only: the shortfall is the kept sum of the alone counts, recounted only for the
// queues a move marked (quota17).
TEST(QuotaAuditProperty, FlatTreeEqualsFromScratchOnRandomRuns) {
  for (const std::string policy : {"fifo", "las", "boreas"}) {
    Checked checked;
    for (uint32_t seed = 1; seed <= 20; ++seed) {
      run_checked(kFlat, policy, seed, checked);
    }
    EXPECT_GT(checked.observations, 1000u) << policy;
    if (policy != "boreas") {
      EXPECT_GT(checked.owed_observations, 50u) << policy;
    }
  }
}

}  // namespace
}  // namespace boreas
