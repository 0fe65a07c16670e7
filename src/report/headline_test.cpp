#include "report/headline.h"

#include <gtest/gtest.h>

#include "report/headline_notes.h"
#include "report/testing.h"

namespace boreas::report {
namespace {

using nlohmann::json;

std::vector<PolicyRun> hybrid_runs() { return testing::fixture_runs("hybrid"); }

std::vector<std::string> texts(const json& items) {
  std::vector<std::string> out;
  for (const auto& i : items) {
    out.push_back(i["text"]);
  }
  return out;
}

TEST(Headline, ChangesAreRatiosFromOneAndAHalfTimesAndPercentsBelow) {
  EXPECT_EQ(lower_is_better_change(41781, 12172), "3.4\u00d7 better");  // 41,781 / 12,172 = 3.43
  EXPECT_EQ(lower_is_better_change(100, 160), "1.6\u00d7 worse");
  EXPECT_EQ(lower_is_better_change(100, 90), "10% better");
  EXPECT_EQ(lower_is_better_change(100, 104), "4% worse");
  EXPECT_EQ(lower_is_better_change(100, 100.2), "unchanged");
}

TEST(Headline, BaselineIsFifoByDefaultOrTheNamedOne) {
  const auto runs = hybrid_runs();  // fifo, thermal-aware
  EXPECT_EQ(*pick_baseline(runs, ""), 0u);
  EXPECT_EQ(*pick_baseline(runs, "thermal-aware"), 1u);
  std::vector<PolicyRun> no_fifo = {runs[1]};
  EXPECT_EQ(*pick_baseline(no_fifo, ""), 0u);
  const auto bad = pick_baseline(runs, "las");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_EQ(bad.status().message(), "--baseline las: no such policy in the runs; pick one of: fifo, thermal-aware");
}

TEST(Headline, HybridFixtureAgainstFifo) {
  // fifo: JCT avg 6480 s, p99 8952 s, no preemption; thermal-aware: 6120 s (−5.6%), 9000 s (+0.5%),
  // one preemption; both: makespan 10800 s, makespan utilization 0.708333.
  const json h = headline(hybrid_runs(), 0);
  EXPECT_EQ(h["baseline"], "fifo");
  ASSERT_EQ(h["arms"].size(), 1u);
  const json& arm = h["arms"][0];
  EXPECT_EQ(arm["policy"], "thermal-aware");
  EXPECT_EQ(texts(arm["items"]), (std::vector<std::string>{
                                     "JCT avg 6% better (1.8 h \u2192 1.7 h)",
                                     "JCT p99 1% worse (2.5 h \u2192 2.5 h)",
                                     "makespan utilization unchanged (70.8%)",
                                     "makespan unchanged (3.0 h)",
                                     "preemptions 0 \u2192 1",
                                 }));
  EXPECT_EQ(arm["text"].get<std::string>().rfind("thermal-aware vs fifo: JCT avg 6% better", 0), 0u);
  EXPECT_TRUE(arm["notes"].empty());  // neither utilization nor makespan got worse
}

JobRow job(int64_t id, const std::string& queue, int64_t gpus, double submit, double start, double end,
           const std::string& reason) {
  JobRow j;
  j.id = id;
  j.queue = queue;
  j.gpus = gpus;
  j.submit_s = submit;
  j.first_start_s = start;
  j.end_s = end;
  j.queue_s = start - submit;
  j.state = "completed";
  j.pending_reason = reason;
  return j;
}

PolicyRun two_job_run(const std::string& name, double job2_start, double makespan, double window_util,
                      const std::string& job2_reason) {
  PolicyRun run;
  run.name = name;
  // 10 GPU-hours of work: makespan utilization 10 / (8 GPUs × makespan in hours).
  run.summary = {{"avg_jct_s", 1800 + (job2_start + 3600 - 1800) / 2}, {"makespan_s", makespan},
                 {"window_utilization", window_util}, {"completed_ref_gpu_hours", 10.0},
                 {"makespan_utilization", 10.0 / (8 * makespan / 3600)}, {"preemptions", job2_start > 3600 ? 12345 : 0}};
  run.jobs.rows = {job(1, "a", 8, 0, 0, 3600, ""), job(2, "b", 4, 1800, job2_start, job2_start + 3600, job2_reason)};
  return run;
}

TEST(Headline, LongerMakespanAndLowerUtilizationAreExplainedFromTheRuns) {
  // Job 2 (queue b, submitted at 0.5 h) starts at 1 h under fifo and at 2 h under boreas, held by
  // its quota: the makespan grows from 2 h to 3 h, utilization falls from 50% to 40%.
  const std::vector<PolicyRun> runs = {two_job_run("fifo", 3600, 7200, 0.5, ""),
                                       two_job_run("boreas", 7200, 10800, 0.4, "quota-exceeded: queue b")};
  const json arm = headline(runs, 0)["arms"][0];
  const auto items = texts(arm["items"]);
  EXPECT_NE(std::find(items.begin(), items.end(), "utilization \u221210.0 points (50.0% \u2192 40.0%)"), items.end());
  EXPECT_NE(std::find(items.begin(), items.end(), "makespan +50% (2.0 h \u2192 3.0 h)"), items.end());
  EXPECT_NE(std::find(items.begin(), items.end(), "preemptions 0 \u2192 12,345"), items.end());
  EXPECT_EQ(arm["notes"], json::array({
                              "After the last submission (at 0.5 h) boreas ran 2.5 h more, fifo 1.5 h. The last "
                              "job to finish under boreas was job 2 (queue b, 4 GPUs): it waited 1.5 h (0.5 h "
                              "under fifo).",
                              "1 of 2 jobs under boreas last waited because their queue had reached its quota "
                              "(`quota-exceeded` in jobs.csv; 0 under fifo): such a job waits even when GPUs are "
                              "free.",
                              "Both completed the same work (10 GPU-hours), so the longer makespan alone lowers "
                              "makespan utilization (in the table).",
                          }));
}

}  // namespace
}  // namespace boreas::report
