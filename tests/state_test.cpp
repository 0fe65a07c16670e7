// ClusterState: lifecycle validation, index consistency, invariant checking.
#include <gtest/gtest.h>

#include "state/cluster_state.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

class StateTest : public ::testing::Test {
 protected:
  StateTest() : cluster_(testing::uniform_cluster(2, 2, 4)) {
    builder_.add(0, 2, 10).add(0, 4, 5).add(1, 1, 3);
  }
  std::vector<GpuId> gpus(std::initializer_list<uint32_t> ids) {
    std::vector<GpuId> out;
    for (uint32_t i : ids) {
      out.push_back(GpuId(i));
    }
    return out;
  }
  Cluster cluster_;
  testing::JobListBuilder builder_;
};

TEST_F(StateTest, StartAndFinishKeepCountsAndIndexes) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.start(JobId(0), gpus({0, 5}), Time::zero()).is_ok());
  EXPECT_EQ(s.free_gpus(), 14u);
  EXPECT_EQ(s.node_free(NodeId(0)), 3u);
  EXPECT_EQ(s.node_free(NodeId(1)), 3u);
  EXPECT_EQ(s.rack_free(RackId(0)), 6u);
  EXPECT_EQ(s.rack_free(RackId(1)), 8u);
  EXPECT_EQ(s.free_index().nodes_with(GpuTypeId(0), 3).size(), 2u);
  EXPECT_EQ(s.queue_gpus_in_use(builder_.symbols().find("default")), 2u);
  EXPECT_TRUE(s.check_invariants().is_ok());
  ASSERT_TRUE(s.finish(JobId(0), Time::from_seconds(10)).is_ok());
  EXPECT_EQ(s.free_gpus(), 16u);
  EXPECT_EQ(s.record(JobId(0)).work_done, Duration::seconds(10));
  EXPECT_TRUE(s.check_invariants().is_ok());
}

TEST_F(StateTest, RejectsDoubleClaimsPartialGangsAndIllegalMoves) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  EXPECT_FALSE(s.start(JobId(0), gpus({0, 1}), Time::zero()).is_ok());  // not submitted
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.submit(JobId(2), Time::zero()).is_ok());
  EXPECT_FALSE(s.start(JobId(0), gpus({0}), Time::zero()).is_ok());      // partial gang
  EXPECT_FALSE(s.start(JobId(0), gpus({0, 0}), Time::zero()).is_ok());   // duplicate GPU
  EXPECT_FALSE(s.start(JobId(0), gpus({0, 99}), Time::zero()).is_ok());  // no such GPU
  ASSERT_TRUE(s.start(JobId(0), gpus({0, 1}), Time::zero()).is_ok());
  EXPECT_EQ(s.start(JobId(2), gpus({1}), Time::zero()).code(), ErrorCode::kConflict);
  EXPECT_FALSE(s.finish(JobId(2), Time::zero()).is_ok());  // pending → completed is illegal
  EXPECT_FALSE(s.submit(JobId(0), Time::zero()).is_ok());
  EXPECT_TRUE(s.check_invariants().is_ok());
}

TEST_F(StateTest, PreemptBanksWorkAndResumes) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.start(JobId(0), gpus({0, 1}), Time::from_seconds(2)).is_ok());
  ASSERT_TRUE(s.preempt(JobId(0), Time::from_seconds(6), Duration::seconds(1)).is_ok());
  EXPECT_EQ(s.record(JobId(0)).work_done, Duration::seconds(4));
  EXPECT_EQ(s.remaining_at(JobId(0), Time::from_seconds(7)), Duration::seconds(7));  // 10 + 1 − 4
  EXPECT_EQ(s.pending().count(JobId(0)), 1u);
  EXPECT_EQ(s.pending_gpu_demand(), 2u);
  ASSERT_TRUE(s.start(JobId(0), gpus({4, 5}), Time::from_seconds(8)).is_ok());
  EXPECT_EQ(s.record(JobId(0)).pending_total, Duration::seconds(4));  // 0–2 and 6–8
  EXPECT_EQ(s.record(JobId(0)).first_start, Time::from_seconds(2));
  EXPECT_EQ(s.record(JobId(0)).preemptions, 1u);
  EXPECT_TRUE(s.check_invariants().is_ok());
}

// The live daemon rebuilds the state each round and carries each job's history into it.
TEST_F(StateTest, RestoreCarriesAPendingJobsHistory) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  EXPECT_EQ(s.restore(JobId(0), Duration::seconds(4), Duration::seconds(4), 1).code(), ErrorCode::kConflict);
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.submit(JobId(2), Time::zero()).is_ok());
  ASSERT_TRUE(s.restore(JobId(0), Duration::seconds(4), Duration::seconds(5), 2).is_ok());
  ASSERT_TRUE(s.restore(JobId(2), Duration::seconds(8), Duration::seconds(8), 0).is_ok());  // past its 3 s
  EXPECT_EQ(s.record(JobId(0)).preemptions, 2u);
  EXPECT_EQ(s.record(JobId(0)).run_time, Duration::seconds(5));
  EXPECT_EQ(s.record(JobId(2)).extra_work, Duration::seconds(5));
  ASSERT_TRUE(s.start(JobId(0), gpus({0, 1}), Time::from_seconds(10)).is_ok());
  EXPECT_EQ(s.work_done_at(JobId(0), Time::from_seconds(13)), Duration::seconds(7));  // 4 before + 3
  EXPECT_EQ(s.restore(JobId(0), Duration::zero(), Duration::zero(), 0).code(), ErrorCode::kConflict);
  EXPECT_TRUE(s.check_invariants().is_ok());
}

// A node out of service leaves every free count and the free index; it cannot host a job, and only
// an idle node may go down.
TEST_F(StateTest, DownNodeHasNoFreeGpus) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.start(JobId(0), gpus({0, 1}), Time::zero()).is_ok());
  EXPECT_EQ(s.take_down(NodeId(0)).code(), ErrorCode::kConflict);  // job 0 runs there
  ASSERT_TRUE(s.take_down(NodeId(1)).is_ok());
  EXPECT_TRUE(s.node_down(NodeId(1)));
  EXPECT_EQ(s.free_gpus(), 10u);  // 16 − 2 held − 4 down
  EXPECT_EQ(s.down_gpus(), 4u);
  EXPECT_EQ(s.node_free(NodeId(1)), 0u);
  EXPECT_EQ(s.rack_free(RackId(0)), 2u);
  EXPECT_EQ(s.zone_free(ZoneId(0)), 10u);
  EXPECT_FALSE(s.gpu_free(GpuId(4)));
  EXPECT_EQ(s.free_index().nodes_with(GpuTypeId(0), 0).size(), 1u);
  EXPECT_TRUE(s.check_invariants().is_ok());
  ASSERT_TRUE(s.submit(JobId(2), Time::zero()).is_ok());
  EXPECT_EQ(s.start(JobId(2), gpus({4}), Time::zero()).code(), ErrorCode::kConflict);
  EXPECT_EQ(s.take_down(NodeId(1)).code(), ErrorCode::kConflict);  // already down
  ASSERT_TRUE(s.bring_up(NodeId(1)).is_ok());
  EXPECT_EQ(s.free_gpus(), 14u);
  EXPECT_EQ(s.down_gpus(), 0u);
  ASSERT_TRUE(s.start(JobId(2), gpus({4}), Time::zero()).is_ok());
  EXPECT_EQ(s.bring_up(NodeId(1)).code(), ErrorCode::kConflict);  // in service
  EXPECT_TRUE(s.check_invariants().is_ok());
}

// A cordoned (drained) node keeps its running job, but its free GPUs leave every free count and
// the free index, and so do the GPUs that job frees when it ends. Cluster: 4 nodes × 4 GPUs, nodes
// 0–1 in rack 0, 2–3 in rack 1, one zone.
TEST_F(StateTest, CordonedNodeKeepsItsJobButOffersNoGpus) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.start(JobId(0), gpus({0, 1}), Time::zero()).is_ok());
  ASSERT_TRUE(s.cordon(NodeId(0)).is_ok());
  EXPECT_TRUE(s.node_cordoned(NodeId(0)));
  EXPECT_EQ(s.running().size(), 1u);      // job 0 keeps running there
  EXPECT_EQ(s.free_gpus(), 12u);          // 16 − 2 held − 2 cordoned
  EXPECT_EQ(s.down_gpus(), 0u);           // cordoned is not out of service
  EXPECT_EQ(s.node_free(NodeId(0)), 0u);
  EXPECT_EQ(s.rack_free(RackId(0)), 4u);  // node 1 only
  EXPECT_EQ(s.zone_free(ZoneId(0)), 12u);
  EXPECT_FALSE(s.gpu_free(GpuId(2)));
  EXPECT_EQ(s.free_index().nodes_with(GpuTypeId(0), 0).size(), 1u);
  EXPECT_EQ(s.free_index().nodes_with(GpuTypeId(0), 4).size(), 3u);
  EXPECT_TRUE(s.check_invariants().is_ok());
  ASSERT_TRUE(s.submit(JobId(2), Time::zero()).is_ok());
  EXPECT_EQ(s.start(JobId(2), gpus({2}), Time::zero()).code(), ErrorCode::kConflict);
  ASSERT_TRUE(s.finish(JobId(0), Time::from_seconds(10)).is_ok());
  EXPECT_EQ(s.free_gpus(), 12u);  // its two GPUs stay out with the node
  EXPECT_EQ(s.node_free(NodeId(0)), 0u);
  EXPECT_EQ(s.rack_free(RackId(0)), 4u);
  EXPECT_FALSE(s.gpu_free(GpuId(0)));
  EXPECT_EQ(s.free_index().nodes_with(GpuTypeId(0), 0).size(), 1u);
  EXPECT_TRUE(s.check_invariants().is_ok());
  EXPECT_EQ(s.cordon(NodeId(0)).code(), ErrorCode::kConflict);     // already cordoned
  EXPECT_EQ(s.take_down(NodeId(0)).code(), ErrorCode::kConflict);  // a node is down or cordoned
  ASSERT_TRUE(s.uncordon(NodeId(0)).is_ok());
  EXPECT_EQ(s.free_gpus(), 16u);
  EXPECT_EQ(s.node_free(NodeId(0)), 4u);
  EXPECT_EQ(s.rack_free(RackId(0)), 8u);
  EXPECT_EQ(s.free_index().nodes_with(GpuTypeId(0), 4).size(), 4u);
  EXPECT_EQ(s.uncordon(NodeId(0)).code(), ErrorCode::kConflict);  // not cordoned
  ASSERT_TRUE(s.start(JobId(2), gpus({2}), Time::from_seconds(10)).is_ok());
  EXPECT_TRUE(s.check_invariants().is_ok());
}

// Uncordon of a node whose job still runs gives back only its unheld GPUs; a job requeued off a
// cordoned node leaves its GPUs out.
TEST_F(StateTest, UncordonOfABusyNodeGivesBackOnlyItsFreeGpus) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.submit(JobId(2), Time::zero()).is_ok());
  ASSERT_TRUE(s.start(JobId(0), gpus({0, 1}), Time::zero()).is_ok());
  ASSERT_TRUE(s.start(JobId(2), gpus({4}), Time::zero()).is_ok());
  ASSERT_TRUE(s.cordon(NodeId(1)).is_ok());
  ASSERT_TRUE(s.cordon(NodeId(0)).is_ok());
  EXPECT_EQ(s.free_gpus(), 8u);  // 16 − 3 held − 3 (node 1) − 2 (node 0)
  EXPECT_EQ(s.rack_free(RackId(0)), 0u);
  EXPECT_EQ(s.rack_free(RackId(1)), 8u);
  EXPECT_EQ(s.free_index().nodes_with(GpuTypeId(0), 0).size(), 2u);
  ASSERT_TRUE(s.uncordon(NodeId(1)).is_ok());  // job 2 still runs there
  EXPECT_EQ(s.record(JobId(2)).state, JobState::kRunning);
  EXPECT_EQ(s.node_free(NodeId(1)), 3u);
  EXPECT_EQ(s.free_gpus(), 11u);
  EXPECT_EQ(s.rack_free(RackId(0)), 3u);
  ASSERT_EQ(s.free_index().nodes_with(GpuTypeId(0), 3).size(), 1u);
  EXPECT_EQ(s.free_index().nodes_with(GpuTypeId(0), 3)[0], NodeId(1));
  EXPECT_TRUE(s.check_invariants().is_ok());
  ASSERT_TRUE(s.requeue(JobId(0), Time::from_seconds(1)).is_ok());  // off cordoned node 0
  EXPECT_EQ(s.free_gpus(), 11u);
  EXPECT_EQ(s.node_free(NodeId(0)), 0u);
  ASSERT_TRUE(s.preempt(JobId(2), Time::from_seconds(1)).is_ok());  // off node 1, in service
  EXPECT_EQ(s.free_gpus(), 12u);
  EXPECT_EQ(s.node_free(NodeId(1)), 4u);
  ASSERT_TRUE(s.take_down(NodeId(3)).is_ok());
  EXPECT_EQ(s.cordon(NodeId(3)).code(), ErrorCode::kConflict);  // out of service already
  EXPECT_EQ(s.cordon(NodeId(9)).code(), ErrorCode::kInvalidArgument);
  EXPECT_TRUE(s.check_invariants().is_ok());
}

}  // namespace
}  // namespace boreas
