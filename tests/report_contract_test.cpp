// The report reads what the simulator writes: sim::write_run output through report's readers,
// the HTML page and the schedule trace (docs/formats/sim-output.md is the contract between them).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "report/chrome_trace.h"
#include "report/html_report.h"
#include "report/run_data.h"
#include "sim/output.h"
#include "support/cluster_builder.h"
#include "support/peer_case.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

// Each test gets its own folder: ctest runs them in parallel processes.
std::filesystem::path simulate_into_folder() {
  const auto jobs = testing::read_peer_case(BOREAS_SOURCE_DIR "/data/peer-cases/synth1000.csv");
  const Cluster cluster = testing::uniform_cluster(2, 4, 8);
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto root = std::filesystem::path(BOREAS_BINARY_DIR) / "report_contract_test" / test->name();
  std::filesystem::remove_all(root);
  for (const char* policy : {"easy-backfill", "las"}) {
    auto out = testing::simulate({&cluster, jobs.jobs, &jobs.symbols}, policy);
    EXPECT_TRUE(out.is_ok());
    const Status st = sim::write_run((root / policy).string(), *out, sim::OutputInfo{"uniform", "synth1000.csv", 1},
                                     cluster, jobs.jobs, jobs.symbols);
    EXPECT_TRUE(st.is_ok()) << st.message();
  }
  return root;
}

TEST(ReportContract, ReadsEverySimulatorFile) {
  const auto root = simulate_into_folder();
  auto runs = report::read_run_dirs({root.string()});
  ASSERT_TRUE(runs.is_ok()) << runs.status().message();
  ASSERT_EQ(runs->size(), 2u);
  for (const auto& run : *runs) {
    EXPECT_EQ(run.jobs.jobs, run.summary["jobs"].get<int64_t>()) << run.name;
    EXPECT_EQ(run.jobs.jobs, 1000) << run.name;
    EXPECT_FALSE(run.series.time_s.empty()) << run.name;
    EXPECT_GE(run.runs.size(), static_cast<size_t>(run.jobs.jobs - run.jobs.unfinished)) << run.name;
  }
  const Status html = report::write_html_report({root.string()}, (root / "report.html").string(), {});
  EXPECT_TRUE(html.is_ok()) << html.message();
}

TEST(ReportContract, TraceHasOneSlicePerRunAndNode) {
  const auto root = simulate_into_folder();
  auto runs = report::read_run_dirs({root.string()});
  ASSERT_TRUE(runs.is_ok()) << runs.status().message();
  size_t expected = 0;
  for (const auto& run : *runs) {
    for (const auto& r : run.runs) {
      expected += r.nodes.size();
    }
  }
  const auto path = root / "trace.json";
  ASSERT_TRUE(report::write_schedule_trace({root.string()}, path.string()).is_ok());
  std::ifstream in(path);
  const auto trace = nlohmann::json::parse(in);
  size_t slices = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "X") {
      ++slices;
      EXPECT_GE(e["dur"].get<int64_t>(), 0);
    }
  }
  EXPECT_EQ(slices, expected);
  EXPECT_GT(slices, 1000u);
}

}  // namespace
}  // namespace boreas
