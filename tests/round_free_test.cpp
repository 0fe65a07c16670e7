// A round's free capacity from the free index (policy/round_free.h) equals a walk over every node
// (in-service nodes' free GPUs by type, the largest free block) through random starts, ends and
// nodes taken out of service and back.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "policy/round_free.h"
#include "state/cluster_view.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

policy::RoundFree walk_nodes(const state::ClusterView& view) {
  policy::RoundFree out;
  out.by_type.assign(view.cluster().catalog.size(), 0);
  const std::vector<Node>& nodes = view.cluster().nodes;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].gpu_type && !view.node_down(NodeId(i))) {
      out.by_type[nodes[i].gpu_type->value()] += view.state().node_free(NodeId(i));
    }
    out.largest_block = std::max(out.largest_block, view.state().node_free(NodeId(i)));
  }
  return out;
}

// Starts a pending job on its gpus free GPUs chosen at random, if there are enough.
bool start_random(state::ClusterState& s, JobId job, std::mt19937& rng) {
  std::vector<GpuId> free;
  for (uint32_t g = 0; g < s.total_gpus(); ++g) {
    if (s.gpu_free(GpuId(g))) {
      free.push_back(GpuId(g));
    }
  }
  if (free.size() < s.spec(job).gpus) {
    return false;
  }
  std::shuffle(free.begin(), free.end(), rng);
  free.resize(s.spec(job).gpus);
  return s.start(job, free, Time::from_seconds(0)).is_ok();
}

void step(state::ClusterState& s, std::mt19937& rng, uint32_t& next_job) {
  const uint32_t what = rng() % 4;
  if (what == 0 && next_job < s.job_count()) {
    const JobId job(next_job++);
    ASSERT_TRUE(s.submit(job, Time::from_seconds(0)).is_ok());
    start_random(s, job, rng);
  } else if (what == 1 && !s.running().empty()) {
    const JobId job = s.running()[rng() % s.running().size()];
    ASSERT_TRUE(s.finish(job, Time::from_seconds(0)).is_ok());
  } else {
    const NodeId node(static_cast<uint32_t>(rng() % s.cluster().nodes.size()));
    (void)(s.node_down(node) ? s.bring_up(node) : s.take_down(node));  // refused while it runs jobs
  }
}

TEST(RoundFreeProperty, FreeIndexEqualsANodeWalkOnRandomStates) {
  const Cluster cluster = testing::uniform_cluster(3, 4, 8);
  uint64_t largest_seen = 0, down_seen = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    testing::JobListBuilder jobs;
    for (int i = 0; i < 300; ++i) {
      jobs.add(0, 1 + rng() % 12, 10);
    }
    state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
    uint32_t next_job = 0;
    for (int i = 0; i < 600; ++i) {
      step(s, rng, next_job);
      const state::ClusterView view(s, Time::from_seconds(0));
      const policy::RoundFree expected = walk_nodes(view), got = policy::round_free(view);
      ASSERT_EQ(got.by_type, expected.by_type) << "seed " << seed << " step " << i;
      ASSERT_EQ(got.largest_block, expected.largest_block) << "seed " << seed << " step " << i;
      largest_seen += expected.largest_block > 0 && expected.largest_block < 8 ? 1 : 0;
      down_seen += s.down_gpus() > 0 ? 1 : 0;
    }
  }
  EXPECT_GT(largest_seen, 100u);  // states where the largest block was neither empty nor a whole node
  EXPECT_GT(down_seen, 100u);     // and where nodes were out of service
}

}  // namespace
}  // namespace boreas
