// summary.json's job_classes (per model class, avg JCT and where its GPU-hours ran) and the
// multi-node job metrics, by hand.
#include <gtest/gtest.h>

#include "placement_fixture.h"
#include "sim/metrics.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

// Two 4-GPU nodes, FAST and SLOW. A (class "x", 8 GPUs, 100 s) holds both: 800 GPU-s, half on each
// type. B (no class, 4 GPUs, 60 s, submitted at 200 s) holds one node: 240 GPU-s on one type.
Cluster fast_and_slow() {
  Cluster c;
  c.catalog.add(testing::gpu_type("FAST", 400, 400));
  c.catalog.add(testing::gpu_type("SLOW", 100, 400));
  c.zones.push_back(Zone{.name = "z"});
  c.racks.push_back(Rack{.name = "r", .zone = ZoneId(0)});
  c.nodes.push_back(testing::four_gpu_node(0, 0, 0));
  c.nodes.push_back(testing::four_gpu_node(1, 0, 1));
  return c;
}

TEST(JobClassMetrics, AvgJctAndGpuShareByType) {
  const Cluster c = fast_and_slow();
  testing::JobListBuilder jobs;
  jobs.add(0, 8, 100).add(200, 4, 60);
  jobs.jobs()[0].job_class = jobs.symbols().intern("x");
  auto out = testing::simulate({&c, jobs.jobs(), &jobs.symbols()}, "fifo");
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const auto& classes = out->summary.job_classes;
  ASSERT_EQ(classes.size(), 2u);
  const sim::JobClassSummary& x = classes.at("x");
  EXPECT_EQ(x.jobs, 1u);
  EXPECT_DOUBLE_EQ(x.avg_jct_s, 100);
  EXPECT_NEAR(x.gpu_hours, 800 / 3600.0, 1e-12);
  EXPECT_DOUBLE_EQ(x.gpu_share.at("FAST"), 0.5);
  EXPECT_DOUBLE_EQ(x.gpu_share.at("SLOW"), 0.5);
  const sim::JobClassSummary& none = classes.at("default");
  EXPECT_DOUBLE_EQ(none.avg_jct_s, 60);
  EXPECT_NEAR(none.gpu_hours, 240 / 3600.0, 1e-12);
  ASSERT_EQ(none.gpu_share.size(), 1u);
  const std::string on = out->result.runs[1].gpus.front() < GpuId(4) ? "FAST" : "SLOW";
  EXPECT_DOUBLE_EQ(none.gpu_share.at(on), 1.0);
}

TEST(JobClassMetrics, AbsentWhenNoJobNamesAClass) {
  const Cluster c = fast_and_slow();
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 100);
  auto out = testing::simulate({&c, jobs.jobs(), &jobs.symbols()}, "fifo");
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_TRUE(out->summary.job_classes.empty());
}

// multi_node_jobs: on two 4-GPU nodes, fifo runs A (8 GPUs, 0-100 s) first; B (4 GPUs) and C (4 GPUs),
// submitted at 10 s, wait for it and end at 160 and 130 s. Only A asks for more than one node: 1 job,
// JCT 100 s. D (8 GPUs, submitted at 200 s, 50 s) adds a second: (100 + 50) / 2 = 75 s.
TEST(MultiNodeMetrics, CountsJobsAskingMoreThanTheLargestNode) {
  const Cluster c = fast_and_slow();
  testing::JobListBuilder jobs;
  jobs.add(0, 8, 100).add(10, 4, 60).add(10, 4, 30);
  auto out = testing::simulate({&c, jobs.jobs(), &jobs.symbols()}, "fifo");
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->summary.multi_node_jobs, 1u);
  EXPECT_DOUBLE_EQ(out->summary.avg_jct_multi_node_s, 100);
  jobs.add(200, 8, 50);
  out = testing::simulate({&c, jobs.jobs(), &jobs.symbols()}, "fifo");
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->summary.multi_node_jobs, 2u);
  EXPECT_DOUBLE_EQ(out->summary.avg_jct_multi_node_s, 75);
}

TEST(MultiNodeMetrics, ZeroWhenEveryJobFitsOneNode) {
  const Cluster c = fast_and_slow();
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 100).add(0, 2, 10);
  auto out = testing::simulate({&c, jobs.jobs(), &jobs.symbols()}, "fifo");
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->summary.multi_node_jobs, 0u);
  EXPECT_DOUBLE_EQ(out->summary.avg_jct_multi_node_s, 0);
}

}  // namespace
}  // namespace boreas
