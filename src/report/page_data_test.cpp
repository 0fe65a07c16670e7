#include "report/page_data.h"

#include <gtest/gtest.h>

#include "report/testing.h"

namespace boreas::report {
namespace {

using nlohmann::json;

std::vector<PolicyRun> load(const std::string& rel) {
  auto runs = read_run_dirs({testing::fixture(rel)});
  EXPECT_TRUE(runs.is_ok()) << runs.status().message();
  return runs.is_ok() ? std::move(*runs) : std::vector<PolicyRun>{};
}

std::vector<std::string> column_keys(const json& table) {
  std::vector<std::string> keys;
  for (const auto& c : table["columns"]) {
    keys.push_back(c["key"]);
  }
  return keys;
}

TEST(ComparisonTable, BaseColumnsOnlyWhenNoOptionalKeys) {
  const json table = comparison_table(load("basic"));
  EXPECT_EQ(column_keys(table), (std::vector<std::string>{"jobs", "avg_jct_s", "p50_jct_s", "p99_jct_s",
                                                           "avg_queue_s", "makespan_utilization", "preemptions",
                                                           "makespan_s"}));
  ASSERT_EQ(table["rows"].size(), 2u);
  EXPECT_EQ(table["rows"][1]["policy"], "fifo");
  EXPECT_EQ(table["rows"][1]["values"][1], 6480.0);
  EXPECT_EQ(table["rows"][0]["values"][5], 0.85);  // backfill's "utilization", saved before the rename
}

TEST(ComparisonTable, OptionalColumnsAppearWhenPresent) {
  const auto keys = column_keys(comparison_table(load("hybrid")));
  EXPECT_EQ(keys.size(), 15u);
  EXPECT_NE(std::find(keys.begin(), keys.end(), "fairness_shortfall_gpu_hours"), keys.end());
  EXPECT_NE(std::find(keys.begin(), keys.end(), "makespan_utilization"), keys.end());
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "energy_facility_kwh"), keys.end());
}

TEST(QueueUsage, GpuHoursFromJobsAndCostFromSummary) {
  const json basic = queue_usage(load("basic"));
  ASSERT_EQ(basic.size(), 4u);
  EXPECT_EQ(basic[2]["policy"], "fifo");
  EXPECT_EQ(basic[2]["queue"], "research");
  EXPECT_EQ(basic[2]["gpu_hours"], 28.0);  // 100800 GPU-seconds
  EXPECT_TRUE(basic[2]["cost_usd"].is_null());
  const json hybrid = queue_usage(load("hybrid"));
  EXPECT_EQ(hybrid[1]["queue"], "prod");
  EXPECT_EQ(hybrid[1]["cost_usd"], 15.0);
  EXPECT_EQ(hybrid[1]["energy_kwh"], 3.6);
}

TEST(KeyedSeries, PairsQueueGpusWithGuarantees) {
  PageLimits limits;
  const json share = keyed_series(load("hybrid"), "gpus:", "guarantee:", limits);
  ASSERT_EQ(share.size(), 4u);  // two policies, two queues
  EXPECT_EQ(share[0]["key"], "research");
  EXPECT_EQ(share[0]["main"][0], json::array({0.0, 12.0}));
  EXPECT_EQ(share[0]["paired"][6], json::array({3.0, 8.0}));  // 10800 s = 3 h
  EXPECT_TRUE(keyed_series(load("basic"), "gpus:", "guarantee:", limits).empty());
}

TEST(ClusterLoad, HoursAllocatedAndPending) {
  PageLimits limits;
  limits.series_points = 3;
  const json load_data = cluster_load(load("basic"), limits);
  // backfill has 6 samples: buckets of two, e.g. (0 h, 12) and (0.5 h, 14) -> (0.25 h, 13, 12).
  ASSERT_EQ(load_data[0]["points"].size(), 3u);
  EXPECT_EQ(load_data[0]["points"][0], json::array({0.25, 13.0, 12.0}));
  EXPECT_EQ(load_data[0]["gpus"], 16.0);
}

TEST(JctCdfs, CountsUnfinishedJobs) {
  PageLimits limits;
  const json cdf = jct_cdfs(load("basic"), limits);
  EXPECT_EQ(cdf[1]["unfinished"], 1);
  EXPECT_EQ(cdf[1]["points"].size(), 5u);
  EXPECT_EQ(cdf[1]["points"][4], json::array({9000.0, 1.0}));
}

TEST(RoundSignificant, KeepsLeadingDigits) {
  EXPECT_EQ(round_significant(123456, 3), 123000);
  EXPECT_DOUBLE_EQ(round_significant(0.0012345, 2), 0.0012);
  EXPECT_EQ(round_significant(0, 3), 0);
}

}  // namespace
}  // namespace boreas::report
