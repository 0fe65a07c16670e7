#include "report/run_data.h"

#include <gtest/gtest.h>

#include "report/testing.h"

namespace boreas::report {
namespace {

using testing::fixture;

TEST(RunData, ReadsRunFolderPoliciesInNameOrder) {
  auto runs = read_run_dirs({fixture("basic")});
  ASSERT_TRUE(runs.is_ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ((*runs)[0].name, "backfill");
  EXPECT_EQ((*runs)[1].name, "fifo");
}

// fifo under pack and under cool (two `boreas sim` runs) would both be "fifo" in every chart.
TEST(RunData, SamePolicyUnderTwoPlacementsIsNamedByPlacement) {
  const auto dir = testing::scratch_dir();
  for (const char* placement : {"pack", "cool"}) {
    const auto copy = dir / placement / "fifo";
    std::filesystem::create_directories(copy.parent_path());
    std::filesystem::copy(fixture("basic/fifo"), copy, std::filesystem::copy_options::recursive);
    std::ifstream in(copy / "summary.json");
    nlohmann::json summary = nlohmann::json::parse(in);
    summary["placement"] = placement;
    testing::write_file(copy / "summary.json", summary.dump());
  }
  auto runs = read_run_dirs({(dir / "pack").string(), (dir / "cool").string(), fixture("basic/backfill")});
  ASSERT_TRUE(runs.is_ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 3u);
  EXPECT_EQ((*runs)[0].name, "fifo/pack");
  EXPECT_EQ((*runs)[1].name, "fifo/cool");
  EXPECT_EQ((*runs)[2].name, "backfill");  // unique names stay as they are
}

TEST(RunData, JobsGiveFinishedJctsAndGpuSecondsPerQueue) {
  auto run = read_policy_run(fixture("basic/fifo"));
  ASSERT_TRUE(run.is_ok()) << run.status().message();
  EXPECT_EQ(run->jobs.jobs, 6);
  EXPECT_EQ(run->jobs.unfinished, 1);  // job 6 asks for more GPUs than the cluster has
  EXPECT_EQ(run->jobs.jct_s, (std::vector<double>{3600, 7200, 4800, 7800, 9000}));
  ASSERT_EQ(run->jobs.gpu_seconds_by_queue.size(), 2u);
  EXPECT_EQ(run->jobs.gpu_seconds_by_queue[0], (std::pair<std::string, double>{"research", 100800}));
  EXPECT_EQ(run->jobs.gpu_seconds_by_queue[1], (std::pair<std::string, double>{"prod", 21600}));
  EXPECT_EQ(run->summary["avg_jct_s"].get<double>(), 6480);
}

TEST(RunData, RunsCarryNodesAndExactMicroseconds) {
  auto run = read_policy_run(fixture("basic/fifo"));
  ASSERT_TRUE(run.is_ok());
  ASSERT_EQ(run->runs.size(), 5u);
  const JobRun& second = run->runs[1];
  EXPECT_EQ(second.job_id, 2);
  EXPECT_EQ(second.end_us, 7'200'000'000);
  EXPECT_EQ(second.nodes, (std::vector<std::string>{"r01-n02", "r02-n01"}));
  EXPECT_EQ(run->runs[4].nodes.size(), 4u);
}

TEST(RunData, TimeSeriesKeepsOptionalColumns) {
  auto run = read_policy_run(fixture("hybrid/thermal-aware"));
  ASSERT_TRUE(run.is_ok()) << run.status().message();
  EXPECT_EQ(run->series.time_s.size(), 7u);
  const auto* prod = run->series.column("gpus:prod");
  ASSERT_NE(prod, nullptr);
  EXPECT_EQ(*prod, (std::vector<double>{0, 8, 2, 2, 0, 0, 0}));
  EXPECT_EQ(run->series.column("no-such-column"), nullptr);
  EXPECT_EQ(run->runs[1].end_reason, "preempted");
}

TEST(RunData, SinglePolicyFolderIsAccepted) {
  auto dirs = find_policy_dirs({fixture("hybrid/fifo"), fixture("basic")});
  ASSERT_TRUE(dirs.is_ok());
  ASSERT_EQ(dirs->size(), 3u);
  EXPECT_EQ((*dirs)[0], fixture("hybrid/fifo"));
}

TEST(RunData, MissingFolderSaysWhatToPass) {
  auto runs = read_run_dirs({"/nonexistent/boreas-run"});
  ASSERT_FALSE(runs.is_ok());
  EXPECT_EQ(runs.status().message(),
            "/nonexistent/boreas-run: not a folder; pass a `boreas sim --out` folder or one policy folder in it");
}

TEST(RunData, BadCellIsLocatedInTheFolderFile) {
  const auto dir = testing::scratch_dir() / "fifo";
  std::filesystem::create_directories(dir);
  for (const char* f : {"summary.json", "timeseries.csv", "runs.csv"}) {
    std::filesystem::copy_file(fixture("basic/fifo/") + f, dir / f);
  }
  testing::write_file(dir / "jobs.csv",
                      "job_id,queue,gpus,jct_s,gpu_seconds,extra\n1,q,1,10,10,ignored\n2,q,1,x,10,ignored\n");
  auto run = read_policy_run(dir.string());
  ASSERT_FALSE(run.is_ok());
  EXPECT_EQ(run.status().message(), "fifo/jobs.csv:3: column 'jct_s': expected a number, got 'x'");
}

TEST(RunData, BrokenSummaryIsReported) {
  const auto dir = testing::scratch_dir() / "p";
  testing::write_file(dir / "summary.json", "{ not json");
  auto run = read_policy_run(dir.string());
  ASSERT_FALSE(run.is_ok());
  EXPECT_EQ(run.status().message(), "p/summary.json: not valid JSON; re-run the simulation to rewrite it");
}

TEST(RunData, RunEndingBeforeStartIsRejected) {
  auto table = CsvTable::parse("job_id,run,start_s,end_s,nodes,gpus,end_reason\n1,0,10,5,n1,1,completed\n",
                               "runs.csv");
  ASSERT_TRUE(table.is_ok());
  auto runs = read_runs(*table);
  ASSERT_FALSE(runs.is_ok());
  EXPECT_EQ(runs.status().message(), "runs.csv:2: end_s is before start_s; a run cannot end before it starts");
}

TEST(RunData, RunStillGoingAtTheEndLastsToTheLastKnownTime) {
  // The simulator leaves end_s and end_reason empty for a run that had not ended.
  auto table = CsvTable::parse(
      "job_id,run,start_s,end_s,nodes,gpus,end_reason\n1,0,0,50.5,n1,1,completed\n2,0,10,,\"n1;n2\",2,\n",
      "runs.csv");
  ASSERT_TRUE(table.is_ok());
  auto runs = read_runs(*table);
  ASSERT_TRUE(runs.is_ok()) << runs.status().message();
  EXPECT_EQ((*runs)[1].end_us, 50'500'000);
  EXPECT_EQ((*runs)[1].end_reason, "running");
  EXPECT_EQ((*runs)[1].nodes, (std::vector<std::string>{"n1", "n2"}));
}

}  // namespace
}  // namespace boreas::report
