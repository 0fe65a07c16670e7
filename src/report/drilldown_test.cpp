#include "report/drilldown.h"

#include <gtest/gtest.h>

#include "report/testing.h"

namespace boreas::report {
namespace {

using nlohmann::json;

std::vector<PolicyRun> hybrid_runs() { return testing::fixture_runs("hybrid"); }

TEST(Drilldown, SmallRunsKeepEveryJobAndDefaultToTheLongestWait) {
  const json d = job_drilldown(hybrid_runs(), 0, 5000, {});
  EXPECT_EQ(d["total"], 6);
  EXPECT_EQ(d["shown"], 6);
  EXPECT_EQ(d["selection"], "all");
  EXPECT_EQ(d["default_job"], 6);  // waited 8400 s under fifo, never started (32 GPUs on 16)
  ASSERT_EQ(d["policies"].size(), 2u);
  EXPECT_EQ(d["policies"][0]["jobs"].size(), 6u);
}

TEST(Drilldown, JobRowsAndRunsCarryTimesNodesAndReasons) {
  const json d = job_drilldown(hybrid_runs(), 0, 5000, {});
  const json& strings = d["strings"];
  const json& thermal = d["policies"][1];
  EXPECT_EQ(thermal["policy"], "thermal-aware");
  // job 2 under thermal-aware: 8 GPUs, submitted at 0, waited 1800 s, preempted once.
  const json& j2 = thermal["jobs"][1];
  EXPECT_EQ(j2[0], 2);
  EXPECT_EQ(strings[j2[1].get<size_t>()], "research");
  EXPECT_EQ(j2[2], 8);
  EXPECT_EQ(j2[3], 0);
  EXPECT_EQ(j2[4], 0);
  EXPECT_EQ(j2[5], 9000);
  EXPECT_EQ(j2[6], 1800);
  EXPECT_EQ(j2[7], 1);
  EXPECT_EQ(strings[j2[8].get<size_t>()], "completed");
  // job 6 never started: start and end are null, the reason is kept.
  const json& j6 = thermal["jobs"][5];
  EXPECT_TRUE(j6[4].is_null());
  EXPECT_TRUE(j6[5].is_null());
  EXPECT_EQ(strings[j6[9].get<size_t>()], "needs 32 GPUs; the cluster has 16");
  std::vector<json> runs2;
  for (const auto& r : thermal["runs"]) {
    if (r[0] == 2) {
      runs2.push_back(r);
    }
  }
  ASSERT_EQ(runs2.size(), 2u);
  EXPECT_EQ(runs2[0][2], 0);
  EXPECT_EQ(runs2[0][3], 1800);
  EXPECT_EQ(strings[runs2[0][4].get<size_t>()], "r01-n02;r02-n01");
  EXPECT_EQ(strings[runs2[0][6].get<size_t>()], "preempted");
  EXPECT_EQ(runs2[1][1], 1);
  EXPECT_EQ(strings[runs2[1][4].get<size_t>()], "r01-n01;r02-n02");
}

TEST(Drilldown, LargeRunsKeepTheLongestWaitsAndTheJobsAskedFor) {
  // Longest waits under any policy: job 6 (8400 s), job 5 (7200 s); job 99 does not exist.
  const auto runs = hybrid_runs();
  EXPECT_EQ(drilldown_ids(runs, 2, {}), (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(drilldown_ids(runs, 2, {1, 99}), (std::vector<int64_t>{1, 5, 6}));
  const json d = job_drilldown(runs, 0, 2, {1});
  EXPECT_EQ(d["shown"], 3);
  EXPECT_EQ(d["selection"], "longest-waiting");
}

}  // namespace
}  // namespace boreas::report
