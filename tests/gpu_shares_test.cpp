// ClusterState's GPU sharing (state/gpu_shares.h): hand-checked free counts, share sums and the
// invariants on a cluster of 2 nodes × 2 GPUs of 80 GiB.
#include <gtest/gtest.h>

#include "state/cluster_state.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

constexpr uint64_t kGib = uint64_t{1} << 30;

Cluster two_nodes_of_80g() {
  Cluster c = testing::uniform_cluster(1, 2, 2);
  GpuCatalog catalog;
  GpuType t;
  t.name = "T80";
  t.memory_gib = 80;
  catalog.add(t);
  c.catalog = catalog;
  return c;
}

class GpuSharesTest : public ::testing::Test {
 protected:
  GpuSharesTest() : cluster_(two_nodes_of_80g()) {
    for (int i = 0; i < 4; ++i) {
      builder_.add(0, 1, 100, i == 3 ? "other" : "default");  // 0..3: one GPU each
    }
    builder_.add(0, 2, 100);  // 4: two whole GPUs
  }
  state::ClusterState make() {
    state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
    for (uint32_t j = 0; j < 4; ++j) {
      EXPECT_TRUE(s.submit_share(JobId(j), Time::zero()).is_ok());
    }
    EXPECT_TRUE(s.submit(JobId(4), Time::zero()).is_ok());
    return s;
  }
  Symbol queue(const char* name) { return builder_.symbols().find(name); }
  Cluster cluster_;
  testing::JobListBuilder builder_;
};

TEST_F(GpuSharesTest, TwoHalvesShareOneGpuThatLeavesAndReturnsToTheFreeCounts) {
  state::ClusterState s = make();
  EXPECT_EQ(s.pending().size(), 1u);  // only the whole-GPU job: policies never see shares waiting
  EXPECT_EQ(s.share_pending().size(), 4u);
  EXPECT_EQ(s.pending_gpu_demand(), 2u);
  ASSERT_TRUE(s.start_share(JobId(0), GpuId(0), 500, 40 * kGib, Time::zero()).is_ok());
  EXPECT_EQ(s.free_gpus(), 3u);  // the shared GPU left the free counts
  EXPECT_EQ(s.node_free(NodeId(0)), 1u);
  EXPECT_FALSE(s.gpu_free(GpuId(0)));
  EXPECT_EQ(s.free_index().nodes_with(GpuTypeId(0), 1).size(), 1u);
  ASSERT_TRUE(s.start_share(JobId(1), GpuId(0), 500, 40 * kGib, Time::zero()).is_ok());
  EXPECT_EQ(s.free_gpus(), 3u);  // the second share takes no further GPU
  EXPECT_EQ(s.shares().milli_used(GpuId(0)), 1000u);
  EXPECT_EQ(s.shares().bytes_used(GpuId(0)), 80 * kGib);
  EXPECT_EQ(s.queue_share_milli(queue("default")), 1000u);
  EXPECT_EQ(s.queue_gpus_in_use(queue("default")), 0u);  // shares are not whole GPUs
  EXPECT_TRUE(s.check_invariants().is_ok()) << s.check_invariants().message();

  EXPECT_EQ(s.start_share(JobId(2), GpuId(0), 1, 0, Time::zero()).code(), ErrorCode::kConflict);  // full
  EXPECT_EQ(s.start(JobId(4), std::vector<GpuId>{GpuId(0), GpuId(1)}, Time::zero()).code(), ErrorCode::kConflict);

  ASSERT_TRUE(s.finish(JobId(0), Time::from_seconds(10)).is_ok());
  EXPECT_EQ(s.free_gpus(), 3u);  // job 1 still shares GPU 0
  EXPECT_EQ(s.shares().milli_used(GpuId(0)), 500u);
  EXPECT_TRUE(s.check_invariants().is_ok()) << s.check_invariants().message();
  ASSERT_TRUE(s.cancel(JobId(1), Time::from_seconds(10)).is_ok());
  EXPECT_EQ(s.free_gpus(), 4u);  // its last share left: free again
  EXPECT_EQ(s.node_free(NodeId(0)), 2u);
  EXPECT_TRUE(s.gpu_free(GpuId(0)));
  EXPECT_EQ(s.queue_share_milli(queue("default")), 0u);
  ASSERT_TRUE(s.start(JobId(4), std::vector<GpuId>{GpuId(0), GpuId(1)}, Time::from_seconds(10)).is_ok());
  EXPECT_TRUE(s.check_invariants().is_ok()) << s.check_invariants().message();
}

// Shares meet the cordon (a drained node): a cordoned node takes no new share, its shared GPU stays
// out of the free counts when its last share leaves, and uncordon brings back only GPUs neither
// held nor shared. Node 0 holds GPUs 0 and 1.
TEST_F(GpuSharesTest, ACordonedNodeKeepsItsSharesAndGivesNothingBackUntilUncordoned) {
  state::ClusterState s = make();
  ASSERT_TRUE(s.start_share(JobId(0), GpuId(0), 500, 10 * kGib, Time::zero()).is_ok());
  ASSERT_TRUE(s.start_share(JobId(1), GpuId(1), 500, 10 * kGib, Time::zero()).is_ok());
  EXPECT_EQ(s.free_gpus(), 2u);  // node 1's two GPUs
  ASSERT_TRUE(s.cordon(NodeId(0)).is_ok());
  EXPECT_EQ(s.free_gpus(), 2u);  // node 0 had nothing free to withdraw
  EXPECT_EQ(s.start_share(JobId(2), GpuId(0), 100, 0, Time::zero()).code(), ErrorCode::kConflict);
  ASSERT_TRUE(s.finish(JobId(0), Time::from_seconds(5)).is_ok());
  EXPECT_EQ(s.free_gpus(), 2u);  // GPU 0's last share left, but its node is cordoned
  EXPECT_EQ(s.node_free(NodeId(0)), 0u);
  EXPECT_FALSE(s.gpu_free(GpuId(0)));
  EXPECT_TRUE(s.check_invariants().is_ok()) << s.check_invariants().message();
  ASSERT_TRUE(s.uncordon(NodeId(0)).is_ok());
  EXPECT_EQ(s.node_free(NodeId(0)), 1u);  // GPU 0 only: GPU 1 is still shared by job 1
  EXPECT_EQ(s.free_gpus(), 3u);
  EXPECT_TRUE(s.gpu_free(GpuId(0)));
  EXPECT_FALSE(s.gpu_free(GpuId(1)));
  EXPECT_TRUE(s.check_invariants().is_ok()) << s.check_invariants().message();
}

TEST_F(GpuSharesTest, MemoryNeverOverCommitsAndMilliNeverPasses1000) {
  state::ClusterState s = make();
  ASSERT_TRUE(s.start_share(JobId(0), GpuId(1), 250, 60 * kGib, Time::zero()).is_ok());
  // 250 milli are left but only 20 GiB: 30 GiB waits, 20 GiB fits exactly.
  EXPECT_EQ(s.start_share(JobId(1), GpuId(1), 250, 30 * kGib, Time::zero()).code(), ErrorCode::kConflict);
  ASSERT_TRUE(s.start_share(JobId(1), GpuId(1), 250, 20 * kGib, Time::zero()).is_ok());
  EXPECT_EQ(s.start_share(JobId(2), GpuId(1), 100, 1, Time::zero()).code(), ErrorCode::kConflict);  // no byte left
  EXPECT_EQ(s.start_share(JobId(2), GpuId(2), 1001, 0, Time::zero()).code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.start_share(JobId(2), GpuId(2), 0, 0, Time::zero()).code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.start_share(JobId(2), GpuId(2), 500, 81 * kGib, Time::zero()).code(), ErrorCode::kConflict);
  EXPECT_EQ(s.shares().bytes_used(GpuId(1)), 80 * kGib);
  EXPECT_EQ(s.free_gpus(), 3u);
  EXPECT_TRUE(s.check_invariants().is_ok()) << s.check_invariants().message();
}

TEST_F(GpuSharesTest, ShareJobsStartOnlyAsSharesAndWholeJobsOnlyWhole) {
  state::ClusterState s = make();
  EXPECT_EQ(s.start(JobId(0), std::vector<GpuId>{GpuId(3)}, Time::zero()).code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(s.start_share(JobId(4), GpuId(3), 500, 0, Time::zero()).is_ok());  // a whole-GPU job
  ASSERT_TRUE(s.start(JobId(4), std::vector<GpuId>{GpuId(2), GpuId(3)}, Time::zero()).is_ok());
  EXPECT_EQ(s.start_share(JobId(0), GpuId(3), 500, 0, Time::zero()).code(), ErrorCode::kConflict);  // held whole
  state::ClusterState fresh(cluster_, builder_.jobs(), builder_.symbols());
  EXPECT_EQ(fresh.submit_share(JobId(4), Time::zero()).code(), ErrorCode::kInvalidArgument);  // 2 GPUs
  EXPECT_TRUE(s.check_invariants().is_ok()) << s.check_invariants().message();
}

TEST_F(GpuSharesTest, PreemptedShareWaitsAgainAndItsNodeCannotGoDown) {
  state::ClusterState s = make();
  ASSERT_TRUE(s.start_share(JobId(3), GpuId(2), 300, 10 * kGib, Time::zero()).is_ok());
  EXPECT_EQ(s.queue_share_milli(queue("other")), 300u);
  EXPECT_EQ(s.take_down(NodeId(1)).code(), ErrorCode::kConflict);  // a share runs there
  ASSERT_TRUE(s.preempt(JobId(3), Time::from_seconds(5)).is_ok());
  EXPECT_EQ(s.share_pending().count(JobId(3)), 1u);
  EXPECT_EQ(s.pending().count(JobId(3)), 0u);
  EXPECT_EQ(s.pending_gpu_demand(), 2u);
  EXPECT_EQ(s.queue_share_milli(queue("other")), 0u);
  EXPECT_EQ(s.free_gpus(), 4u);
  ASSERT_TRUE(s.restore(JobId(3), Duration::seconds(5), Duration::seconds(5), 1).is_ok());
  ASSERT_TRUE(s.take_down(NodeId(1)).is_ok());
  EXPECT_EQ(s.start_share(JobId(3), GpuId(2), 300, 0, Time::from_seconds(6)).code(), ErrorCode::kConflict);
  ASSERT_TRUE(s.start_share(JobId(3), GpuId(0), 300, 0, Time::from_seconds(6)).is_ok());
  EXPECT_EQ(s.record(JobId(3)).work_done, Duration::seconds(5));
  EXPECT_TRUE(s.check_invariants().is_ok()) << s.check_invariants().message();
}

}  // namespace
}  // namespace boreas
