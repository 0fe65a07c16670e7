// Recovery time after a failure (SimResult::recovery_s, docs/formats/sim-output.md): from the
// failure until the job has regained the progress it had then, on scenarios computed by hand.
#include <gtest/gtest.h>

#include "sim/metrics.h"
#include "support/cluster_builder.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

sim::EngineOptions injected(const char* physics, Time at, Duration repair) {
  sim::EngineOptions e;
  e.physics.on = *sim::parse_physics(physics);
  e.physics.random_failures = false;
  e.physics.restore = Duration::seconds(120);
  e.physics.injected_failures = {{at, NodeId(0), repair}};
  return e;
}

// One 8-GPU node; checkpoints every 1000 s of compute, 100 s to write, so the job progresses at
// 1000/1100 and its last write before the failure at 2550 s ended at 2200 s. The failure loses the
// 350 s since then (318.18 s of work) and adds the 120 s restore; the node is repaired at once and
// the job restarts at 2550 s. Redoing 318.18 + 120 s of work at 1000/1100 takes 350 + 132 = 482 s.
TEST(Recovery, CheckpointedJobRecoversTheTimeSinceItsLastWritePlusTheRestore) {
  const Cluster c = testing::uniform_cluster(1, 1, 8);
  testing::JobListBuilder jobs;
  jobs.add(0, 8, 10000);
  jobs.jobs()[0].checkpoint_interval = Duration::seconds(1000);
  jobs.jobs()[0].checkpoint_cost = Duration::seconds(100);
  auto out = testing::simulate({&c, jobs.jobs(), &jobs.symbols()}, "fifo", {},
                               injected("failures,checkpoint", Time::from_seconds(2550), Duration::zero()));
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  ASSERT_EQ(out->result.recovery_s.size(), 1u);
  EXPECT_NEAR(out->result.recovery_s[0], 350 + 120 * 1.1, 1e-3);
  EXPECT_EQ(out->summary.recoveries, 1u);
  EXPECT_NEAR(out->summary.recovery_time_mean_s, 482, 1e-3);
  EXPECT_NEAR(out->summary.recovery_time_p95_s, 482, 1e-3);
}

// Two 8-GPU nodes, no checkpoints. A (8 GPUs, 1000 s) runs on node 0, which fails at 100 s and stays
// down for an hour; B (8 GPUs, 1000 s) holds node 1 until 1000 s. A waits 900 s, restarts at 1000 s
// and redoes its 100 s of work: it has A's progress of 100 s back at 1100 s, 1000 s after the failure.
TEST(Recovery, CountsTheRequeueWaitAndTheWholeLostRun) {
  const Cluster c = testing::uniform_cluster(1, 2, 8);
  testing::JobListBuilder jobs;
  jobs.add(0, 8, 1000).add(0, 8, 1000);
  auto out = testing::simulate({&c, jobs.jobs(), &jobs.symbols()}, "fifo", {},
                               injected("failures", Time::from_seconds(100), Duration::seconds(3600)));
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  ASSERT_EQ(out->result.runs[0].gpus.front(), GpuId(0));  // A on node 0
  EXPECT_EQ(out->result.jobs[0].end.to_seconds(), 2000);
  ASSERT_EQ(out->result.recovery_s.size(), 1u);
  EXPECT_NEAR(out->result.recovery_s[0], 1000, 1e-6);
}

// No failure, no recovery: the summary says 0 recoveries rather than inventing a time.
TEST(Recovery, NoFailureNoRecovery) {
  const Cluster c = testing::uniform_cluster(1, 1, 8);
  testing::JobListBuilder jobs;
  jobs.add(0, 8, 1000);
  sim::EngineOptions e = injected("failures,checkpoint", Time::from_seconds(5000), Duration::zero());
  auto out = testing::simulate({&c, jobs.jobs(), &jobs.symbols()}, "fifo", {}, e);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_TRUE(out->result.recovery_s.empty());
  EXPECT_EQ(out->summary.recoveries, 0u);
  EXPECT_EQ(out->summary.recovery_time_mean_s, 0);
}

}  // namespace
}  // namespace boreas
