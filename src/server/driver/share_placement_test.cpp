// Where a share goes (share_placement.h), on hand-checked cases: 2 nodes × 2 GPUs of 80 GiB.
#include "server/driver/share_placement.h"

#include <gtest/gtest.h>

namespace boreas::server {
namespace {

constexpr uint64_t kGib = uint64_t{1} << 30;

Cluster two_nodes() {
  Cluster c;
  GpuType t;
  t.name = "T80";
  t.memory_gib = 80;
  c.catalog.add(t);
  c.zones.push_back(Zone{.name = "z"});
  c.racks.push_back(Rack{.name = "r", .zone = ZoneId(0), .leaf = 0});
  for (uint32_t n = 0; n < 2; ++n) {
    Node node;
    node.name = "n" + std::to_string(n);
    node.rack = RackId(0);
    node.gpu_type = GpuTypeId(0);
    node.gpu_count = 2;
    node.first_gpu = 2 * n;
    c.nodes.push_back(node);
  }
  return c;
}

class SharePlacementTest : public ::testing::Test {
 protected:
  SharePlacementTest() : cluster_(two_nodes()), drained_(2, false) {
    for (uint32_t i = 0; i < 4; ++i) {
      JobSpec j;
      j.id = JobId(i);
      j.gpus = 1;
      j.queue = symbols_.intern("default");
      specs_.push_back(j);
    }
  }
  // Jobs 0..3 share GPUs with the given milli (0 = not started).
  state::ClusterState with_shares(std::vector<std::pair<uint32_t, uint32_t>> gpu_milli) {
    state::ClusterState s(cluster_, specs_, symbols_);
    for (uint32_t j = 0; j < gpu_milli.size(); ++j) {
      EXPECT_TRUE(s.submit_share(JobId(j), Time::zero()).is_ok());
      const auto [gpu, milli] = gpu_milli[j];
      EXPECT_TRUE(s.start_share(JobId(j), GpuId(gpu), milli, 80 * kGib / 1000 * milli, Time::zero()).is_ok());
    }
    return s;
  }
  static SubmitRequest share(uint32_t milli, uint64_t bytes = 0) {
    SubmitRequest r;
    r.gpus = 1;
    r.gpu_milli = milli;
    r.gpu_memory_bytes = bytes;
    return r;
  }
  // A target workload of 0.5-GPU jobs only: a GPU with less than 500 milli free is a fragment.
  static std::vector<frag::TaskClass> halves() {
    frag::PodShape p;
    p.gpus = 1;
    p.gpu_milli = 500;
    return frag::task_mix({p, p, p});
  }
  Cluster cluster_;
  SymbolTable symbols_;
  std::vector<JobSpec> specs_;
  std::vector<bool> drained_;
};

TEST_F(SharePlacementTest, TheShareThatLeavesLeastFragmentWinsOverTheTightest) {
  // GPU 0 has 550 milli left, GPU 1 700. A 0.1 share on GPU 0 leaves 450 — a fragment for 0.5 jobs
  // (growth +450); on GPU 1 it leaves 600 — none (growth 0). Best fit would take GPU 0.
  const state::ClusterState s = with_shares({{0, 450}, {1, 300}});
  const auto ch = choose_share(ShareView{s, cluster_, drained_}, share(100), halves());
  ASSERT_TRUE(ch.has_value());
  EXPECT_EQ(ch->gpu, GpuId(1));
  EXPECT_TRUE(ch->shared);
  EXPECT_DOUBLE_EQ(ch->growth, 0);
  EXPECT_EQ(ch->left, 600u);
  EXPECT_EQ(ch->size.bytes, 8 * kGib);
}

TEST_F(SharePlacementTest, SharedGpusWithRoomComeBeforeFreeOnes) {
  // A 0.5 share on GPU 0 (500 left): another 0.5 joins it rather than opening a free GPU.
  const state::ClusterState s = with_shares({{0, 500}});
  const auto ch = choose_share(ShareView{s, cluster_, drained_}, share(500), halves());
  ASSERT_TRUE(ch.has_value());
  EXPECT_EQ(ch->gpu, GpuId(0));
  EXPECT_EQ(ch->left, 0u);
  // 0.6 does not fit there: a free GPU; GPU 1 beside the share or GPU 2 on the empty node both
  // leave 400 (a fragment for 0.5 jobs, growth +400 either way): the lowest GPU.
  const auto big = choose_share(ShareView{s, cluster_, drained_}, share(600), halves());
  ASSERT_TRUE(big.has_value());
  EXPECT_FALSE(big->shared);
  EXPECT_EQ(big->gpu, GpuId(1));
  EXPECT_DOUBLE_EQ(big->growth, 400);
}

TEST_F(SharePlacementTest, MemoryAndDrainsLimitTheCandidates) {
  // GPU 0 holds 0.25 (20 GiB): a 0.25 share asking 70 GiB does not fit its 60 GiB left: a free GPU.
  const state::ClusterState s = with_shares({{0, 250}});
  const auto mem = choose_share(ShareView{s, cluster_, drained_}, share(250, 70 * kGib), halves());
  ASSERT_TRUE(mem.has_value());
  EXPECT_FALSE(mem->shared);
  std::vector<bool> all_drained{true, true};
  EXPECT_FALSE(choose_share(ShareView{s, cluster_, all_drained}, share(250), halves()).has_value());
  EXPECT_FALSE(choose_share(ShareView{s, cluster_, drained_}, share(0, 81 * kGib), halves()).has_value());
}

TEST_F(SharePlacementTest, AShareCountsItsMilliAgainstTheQueueCeiling) {
  QueueTree tree;
  QueueSpec q;
  q.name = "default";
  q.quotas.push_back(GpuQuota{"*", 1, 0, std::nullopt});  // ceiling: 1 GPU
  tree.queues.push_back(q);
  tree.parent.push_back(std::nullopt);
  const state::ClusterState s = with_shares({{0, 600}});
  const Symbol def = symbols_.find("default");
  EXPECT_FALSE(over_ceiling(tree, s, def, "default", 400).has_value());  // 600 + 400 = 1000
  const auto why = over_ceiling(tree, s, def, "default", 401);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(*why, "quota-exceeded: queue default holds 600 milli-GPU; 401 more would pass its ceiling of 1000");
  EXPECT_FALSE(over_ceiling(std::nullopt, s, def, "default", 5000).has_value());  // no queue tree
}

}  // namespace
}  // namespace boreas::server
