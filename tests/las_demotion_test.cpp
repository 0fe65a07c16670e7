// LAS keeps each running job's demotion time from its run segment (start, rate, level); a rate
// change (physics: throttling, slower links) must move it. Worked by hand below.

#include <gtest/gtest.h>

#include "policy/registry.h"
#include "state/cluster_state.h"
#include "state/cluster_view.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

// One 4-GPU node. Job 0 (1 GPU, 10,000 s) runs; job 1 (4 GPUs) waits behind it, so the scheduler
// asks to be woken when job 0 drops below it. Queue 0 ends at 1,000 GPU-seconds.
TEST(LasDemotion, WakeUpFollowsTheRateOfTheRunningJob) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 1, 10000).add(0, 4, 100);
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  policy::PolicyOptions options;
  options.service.thresholds_gpu_s = {1000};
  auto scheduler = registry.make("las", options);
  ASSERT_TRUE(scheduler.is_ok());
  state::ClusterState st(cluster, jobs.jobs(), jobs.symbols());
  ASSERT_TRUE(st.submit(JobId(0), Time()).is_ok());

  const policy::Plan first = (*scheduler)->schedule(state::ClusterView(st, Time()));
  ASSERT_EQ(first.starts.size(), 1u);
  ASSERT_TRUE(st.start(JobId(0), first.starts[0].gpus, Time()).is_ok());
  const Time t200 = Time() + Duration::seconds(200);
  ASSERT_TRUE(st.submit(JobId(1), t200).is_ok());
  // Job 1 does not fit beside job 0; job 0 reaches 1,000 GPU-s at t = 1,000 s.
  const policy::Plan waiting = (*scheduler)->schedule(state::ClusterView(st, t200));
  EXPECT_TRUE(waiting.starts.empty());
  EXPECT_EQ(waiting.wake_at, Time() + Duration::seconds(1000));

  // At t = 400 s job 0 (400 GPU-s done) slows to half speed: 600 GPU-s more take 1,200 s.
  const Time t400 = Time() + Duration::seconds(400);
  ASSERT_TRUE(st.set_rate(JobId(0), 0.5, t400).is_ok());
  const policy::Plan slowed = (*scheduler)->schedule(state::ClusterView(st, t400));
  EXPECT_TRUE(slowed.starts.empty());
  EXPECT_EQ(slowed.wake_at, Time() + Duration::seconds(1600));

  // At t = 1,600 s job 0 is demoted below job 1, which preempts it.
  const Time t1600 = Time() + Duration::seconds(1600);
  const policy::Plan demoted = (*scheduler)->schedule(state::ClusterView(st, t1600));
  EXPECT_EQ(demoted.preemptions, std::vector<JobId>{JobId(0)});
  ASSERT_EQ(demoted.starts.size(), 1u);
  EXPECT_EQ(demoted.starts[0].job, JobId(1));
}

}  // namespace
}  // namespace boreas
