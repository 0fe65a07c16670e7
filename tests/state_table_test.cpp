// ClusterState's append-only job table (add_job) and hold/release: the live daemon's one state
// grows in place and takes waiting jobs out of the policies' sight without being rebuilt.
#include <gtest/gtest.h>

#include "state/cluster_state.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

// Two 4-GPU nodes and three jobs (2, 4 and 1 GPUs), the table the tests borrow.
struct StateTableTest : ::testing::Test {
  Cluster cluster_ = testing::uniform_cluster(1, 2, 4);
  testing::JobListBuilder builder_ = [] {
    testing::JobListBuilder b;
    b.add(0, 2, 10).add(0, 4, 5).add(1, 1, 3);
    return b;
  }();
};

JobSpec spec_of(uint32_t gpus, int64_t seconds, bool preemptible = true) {
  JobSpec s;
  s.gpus = gpus;
  s.duration = Duration::seconds(seconds);
  s.preemptible = preemptible;
  return s;
}

// Jobs added after the borrowed table take the next ids; the jobs already there keep their ids,
// records and GPUs, and the added ones go through the same lifecycle.
TEST_F(StateTableTest, AddJobAppendsAfterTheBorrowedTable) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.start(JobId(0), std::vector<GpuId>{GpuId(0), GpuId(1)}, Time::zero()).is_ok());
  EXPECT_EQ(s.add_job(spec_of(3, 7)), JobId(3));
  EXPECT_EQ(s.add_job(spec_of(1, 9)), JobId(4));
  EXPECT_EQ(s.job_count(), 5u);
  EXPECT_EQ(s.spec(JobId(3)).id, JobId(3));  // the id is the slot, whatever the caller wrote
  EXPECT_EQ(s.spec(JobId(3)).gpus, 3u);
  EXPECT_EQ(s.spec(JobId(1)).gpus, 4u);  // copied from the borrowed table
  EXPECT_EQ(s.record(JobId(0)).gpus, (std::vector<GpuId>{GpuId(0), GpuId(1)}));
  EXPECT_FALSE(s.record(JobId(3)).submitted);
  ASSERT_TRUE(s.submit(JobId(3), Time::from_seconds(1)).is_ok());
  EXPECT_EQ(s.pending_gpu_demand(), 3u);
  ASSERT_TRUE(s.start(JobId(3), std::vector<GpuId>{GpuId(4), GpuId(5), GpuId(6)}, Time::from_seconds(2)).is_ok());
  EXPECT_EQ(s.free_gpus(), 3u);  // 8 − 2 − 3
  ASSERT_TRUE(s.finish(JobId(3), Time::from_seconds(9)).is_ok());
  EXPECT_EQ(s.record(JobId(3)).work_done, Duration::seconds(7));
  EXPECT_EQ(s.finished(), std::vector<JobId>{JobId(3)});
  EXPECT_TRUE(s.check_invariants().is_ok());
}

// A state built on no table at all (the daemon's) grows from id 0.
TEST_F(StateTableTest, AnEmptyTableGrowsFromZero) {
  state::ClusterState s(cluster_, {}, builder_.symbols());
  EXPECT_EQ(s.job_count(), 0u);
  EXPECT_EQ(s.submit(JobId(0), Time::zero()).code(), ErrorCode::kInvalidArgument);  // no such job yet
  for (uint32_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(s.add_job(spec_of(1, 5)), JobId(i));
    ASSERT_TRUE(s.submit(JobId(i), Time::zero()).is_ok());
  }
  EXPECT_EQ(s.pending().size(), 1000u);
  EXPECT_EQ(s.pending_gpu_demand(), 1000u);
  EXPECT_TRUE(s.check_invariants().is_ok());
}

TEST_F(StateTableTest, SetPreemptibleChangesOnlyThatJob) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  EXPECT_EQ(s.set_preemptible(JobId(7), false).code(), ErrorCode::kInvalidArgument);
  ASSERT_TRUE(s.set_preemptible(JobId(1), false).is_ok());
  EXPECT_FALSE(s.spec(JobId(1)).preemptible);
  EXPECT_TRUE(s.spec(JobId(0)).preemptible);
  EXPECT_TRUE(builder_.jobs()[1].preemptible);  // the borrowed table is copied, never written
}

// A held job leaves pending() and the pending demand but keeps its record; it cannot start, comes
// back with release, and its wait (held time included) counts when it starts.
TEST_F(StateTableTest, HoldTakesAWaitingJobOutOfPendingUntilReleased) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.submit(JobId(1), Time::zero()).is_ok());
  const size_t journal = s.journal().size();
  ASSERT_TRUE(s.hold(JobId(1)).is_ok());
  EXPECT_EQ(s.journal().size(), journal + 1);
  EXPECT_EQ(s.journal().back(), JobId(1));
  EXPECT_EQ(s.pending().count(JobId(1)), 0u);
  EXPECT_EQ(s.pending_gpu_demand(), 2u);
  EXPECT_TRUE(s.record(JobId(1)).held);
  EXPECT_EQ(s.record(JobId(1)).state, JobState::kPending);
  EXPECT_TRUE(s.check_invariants().is_ok());
  EXPECT_EQ(s.hold(JobId(1)).code(), ErrorCode::kConflict);  // held already
  EXPECT_EQ(s.start(JobId(1), std::vector<GpuId>{GpuId(0), GpuId(1), GpuId(2), GpuId(3)}, Time::zero()).code(),
            ErrorCode::kConflict);
  EXPECT_EQ(s.hold(JobId(2)).code(), ErrorCode::kConflict);  // not submitted
  EXPECT_EQ(s.release(JobId(0)).code(), ErrorCode::kConflict);  // not held
  ASSERT_TRUE(s.release(JobId(1)).is_ok());
  EXPECT_EQ(s.pending().count(JobId(1)), 1u);
  EXPECT_EQ(s.pending_gpu_demand(), 6u);
  ASSERT_TRUE(s.start(JobId(1), std::vector<GpuId>{GpuId(0), GpuId(1), GpuId(2), GpuId(3)}, Time::from_seconds(4)).is_ok());
  EXPECT_EQ(s.record(JobId(1)).pending_total, Duration::seconds(4));
  EXPECT_EQ(s.hold(JobId(1)).code(), ErrorCode::kConflict);  // running
  EXPECT_TRUE(s.check_invariants().is_ok());
}

// A held job can be cancelled; it ends no longer held. A preempted job can be held and released.
TEST_F(StateTableTest, HeldJobsCanBeCancelledAndPreemptedOnesHeld) {
  state::ClusterState s(cluster_, builder_.jobs(), builder_.symbols());
  ASSERT_TRUE(s.submit(JobId(0), Time::zero()).is_ok());
  ASSERT_TRUE(s.submit(JobId(2), Time::zero()).is_ok());
  ASSERT_TRUE(s.hold(JobId(2)).is_ok());
  ASSERT_TRUE(s.cancel(JobId(2), Time::from_seconds(1)).is_ok());
  EXPECT_FALSE(s.record(JobId(2)).held);
  EXPECT_EQ(s.record(JobId(2)).state, JobState::kCancelled);
  ASSERT_TRUE(s.start(JobId(0), std::vector<GpuId>{GpuId(0), GpuId(1)}, Time::zero()).is_ok());
  ASSERT_TRUE(s.preempt(JobId(0), Time::from_seconds(3)).is_ok());
  ASSERT_TRUE(s.hold(JobId(0)).is_ok());
  EXPECT_TRUE(s.pending().empty());
  EXPECT_EQ(s.pending_gpu_demand(), 0u);
  EXPECT_TRUE(s.check_invariants().is_ok());
  ASSERT_TRUE(s.release(JobId(0)).is_ok());
  EXPECT_EQ(s.record(JobId(0)).state, JobState::kPreempted);
  EXPECT_EQ(s.record(JobId(0)).work_done, Duration::seconds(3));
  EXPECT_EQ(s.pending_gpu_demand(), 2u);
  EXPECT_TRUE(s.check_invariants().is_ok());
}

}  // namespace
}  // namespace boreas
