// The report reads what the simulator writes: sim::write_run output through report's readers,
// the HTML page and the schedule trace (docs/formats/sim-output.md is the contract between them).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "config/cluster_spec.h"
#include "report/chrome_trace.h"
#include "report/html_report.h"
#include "report/page_data.h"
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
    sim::OutputInfo info;
    info.cluster = "uniform";
    info.trace = "synth1000.csv";
    info.seed = 1;
    const Status st = sim::write_run((root / policy).string(), *out, info, cluster, jobs.jobs, jobs.symbols);
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

TEST(ReportContract, TraceHasOneSlicePerRunAndNodeAndNoOverlapOnATrack) {
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
  size_t second_lanes = 0;  // tracks of a node shared by two runs at once: the run shares nodes
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> tracks;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "X") {
      ++slices;
      EXPECT_GE(e["dur"].get<int64_t>(), 0);
      const int64_t ts = e["ts"];
      tracks[{e["pid"], e["tid"]}].emplace_back(ts, ts + e["dur"].get<int64_t>());
    } else if (e["name"] == "thread_name" && e["args"]["name"].get<std::string>().ends_with(" #2")) {
      ++second_lanes;
    }
  }
  EXPECT_EQ(slices, expected);
  EXPECT_GT(slices, 1000u);
  EXPECT_GT(second_lanes, 0u);
  for (auto& [track, spans] : tracks) {
    std::sort(spans.begin(), spans.end());
    for (size_t i = 1; i < spans.size(); ++i) {
      ASSERT_LE(spans[i - 1].second, spans[i].first) << "pid " << track.first << " tid " << track.second;
    }
  }
}

// The per-queue and per-zone charts draw what a real run with --queues and power physics writes:
// on the hybrid example (air and liquid zones), jobs spread over two queues.
TEST(ReportContract, QueueAndZoneChartsComeFromRealRuns) {
  auto cluster = config::load_cluster_file(BOREAS_SOURCE_DIR "/examples/clusters/hybrid.yaml");
  ASSERT_TRUE(cluster.is_ok()) << cluster.status().message();
  auto jobs = testing::read_peer_case(BOREAS_SOURCE_DIR "/data/peer-cases/synth1000.csv");
  for (JobSpec& j : jobs.jobs) {
    j.queue = jobs.symbols.intern(j.id.value() % 2 == 0 ? "research" : "prod");
  }
  auto tree = config::load_queues_string(
      "queues: [{name: prod, quotas: [{gpu: '*', guaranteed: 32}]}, {name: research}]", "inline", *cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  policy::PolicyOptions options;
  options.tenancy.queues = std::make_shared<QueueTree>(std::move(*tree));
  sim::EngineOptions engine;
  engine.physics.on.power = true;
  engine.physics.on.cost = true;
  auto out = testing::simulate({&*cluster, jobs.jobs, &jobs.symbols}, "boreas", options, engine);
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  const auto root = std::filesystem::path(BOREAS_BINARY_DIR) / "report_contract_test" / "queues_zones";
  std::filesystem::remove_all(root);
  sim::OutputInfo info;
  info.cluster = "hybrid";
  info.trace = "synth1000.csv";
  info.seed = 1;
  ASSERT_TRUE(sim::write_run((root / "boreas").string(), *out, info, *cluster, jobs.jobs, jobs.symbols).is_ok());
  auto runs = report::read_run_dirs({root.string()});
  ASSERT_TRUE(runs.is_ok()) << runs.status().message();
  const report::TimeSeries& series = runs->front().series;
  // Work is conserved per sample: the queues' GPUs add up to the allocated GPUs.
  const auto* prod = series.column("gpus:prod");
  const auto* research = series.column("gpus:research");
  const auto* allocated = series.column("allocated_gpus");
  ASSERT_TRUE(prod && research && allocated);
  double peak_prod = 0;
  for (size_t i = 0; i < series.time_s.size(); ++i) {
    EXPECT_EQ((*prod)[i] + (*research)[i], (*allocated)[i]) << "sample " << i;
    peak_prod = std::max(peak_prod, (*prod)[i]);
  }
  EXPECT_GT(peak_prod, 0);
  EXPECT_EQ((*series.column("guarantee:prod"))[0], 32);
  const nlohmann::json page = report::page_data(*runs, "t", {});
  EXPECT_EQ(page["queue_share"].size(), 2u);
  ASSERT_EQ(page["zones"].size(), cluster->zones.size());
  for (const auto& z : page["zones"]) {
    EXPECT_FALSE(z["main"].is_null()) << z["key"];
    EXPECT_FALSE(z["paired"].is_null()) << z["key"];
  }
  // Per-queue energy and the PUE column reach the page.
  const nlohmann::json& summary = runs->front().summary;
  EXPECT_GT(summary["avg_pue"].get<double>(), 1.0);
  const double queue_kwh =
      summary["queues"]["prod"]["energy_kwh"].get<double>() + summary["queues"]["research"]["energy_kwh"].get<double>();
  EXPECT_GT(queue_kwh, 0);
  EXPECT_LE(queue_kwh, summary["energy_facility_kwh"].get<double>());
  bool pue_column = false;
  for (const auto& c : page["table"]["columns"]) {
    pue_column = pue_column || c["key"] == "avg_pue";
  }
  EXPECT_TRUE(pue_column);
}

}  // namespace
}  // namespace boreas
