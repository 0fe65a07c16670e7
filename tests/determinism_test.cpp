// Same input and seed → byte-identical output files, except summary.json's wall_time_s.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "policy/registry.h"
#include "sim/output.h"
#include "support/cluster_builder.h"
#include "support/peer_case.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

std::string slurp(const std::filesystem::path& p, bool drop_wall_time) {
  std::ifstream in(p, std::ios::binary);
  std::string out, line;
  while (std::getline(in, line)) {
    if (!(drop_wall_time && line.find("\"wall_time_s\"") != std::string::npos)) {
      out += line + "\n";
    }
  }
  return out;
}

void run_into(const std::string& dir, const std::string& policy, const testing::JobList& jobs,
              const Cluster& cluster) {
  policy::PolicyOptions options;
  options.placement = "pack";
  sim::EngineOptions engine;
  engine.preemption_overhead = Duration::seconds(10);
  auto out = testing::simulate({&cluster, jobs.jobs, &jobs.symbols}, policy, options, engine);
  ASSERT_TRUE(out.is_ok());
  sim::OutputInfo info;
  info.cluster = "peer-64";
  info.trace = "synth1000.csv";
  info.seed = 1;
  const Status st = sim::write_run(dir + "/" + policy, *out, info, cluster, jobs.jobs, jobs.symbols);
  ASSERT_TRUE(st.is_ok()) << st.message();
}

TEST(Determinism, SameInputSameBytes) {
  const auto jobs = testing::read_peer_case(BOREAS_SOURCE_DIR "/data/peer-cases/synth1000.csv");
  const Cluster cluster = testing::uniform_cluster(2, 4, 8);
  const std::filesystem::path root = std::filesystem::path(BOREAS_BINARY_DIR) / "determinism_test";
  std::filesystem::remove_all(root);
  for (const char* policy : {"las", "easy-backfill"}) {
    run_into((root / "a").string(), policy, jobs, cluster);
    run_into((root / "b").string(), policy, jobs, cluster);
    for (const char* file : {"summary.json", "jobs.csv", "timeseries.csv", "runs.csv"}) {
      const auto a = slurp(root / "a" / policy / file, true);
      EXPECT_GT(a.size(), 100u) << file;
      EXPECT_EQ(a, slurp(root / "b" / policy / file, true)) << policy << "/" << file;
    }
  }
}

// The engine's own counters repeat too: the same rounds, events and wake-ups on every run.
TEST(Determinism, SameRoundsAndEvents) {
  const auto jobs = testing::read_peer_case(BOREAS_SOURCE_DIR "/data/peer-cases/synth1000.csv");
  const Cluster cluster = testing::uniform_cluster(2, 4, 8);
  for (const char* policy : {"las", "gittins", "boreas"}) {
    policy::PolicyOptions options;
    options.placement = "pack";
    const auto a = testing::simulate({&cluster, jobs.jobs, &jobs.symbols}, policy, options);
    const auto b = testing::simulate({&cluster, jobs.jobs, &jobs.symbols}, policy, options);
    ASSERT_TRUE(a.is_ok() && b.is_ok()) << policy;
    EXPECT_GT(a->result.rounds, 0u) << policy;
    EXPECT_GE(a->result.events, 2 * jobs.jobs.size()) << policy;  // each job arrives and completes
    EXPECT_EQ(a->result.rounds, b->result.rounds) << policy;
    EXPECT_EQ(a->result.events, b->result.events) << policy;
    EXPECT_EQ(a->result.wakeups, b->result.wakeups) << policy;
  }
}

TEST(Output, SummaryHasTheContractKeys) {
  const auto jobs = testing::read_peer_case(BOREAS_SOURCE_DIR "/data/peer-cases/synth1000.csv");
  const Cluster cluster = testing::uniform_cluster(1, 8, 8);
  const std::filesystem::path root = std::filesystem::path(BOREAS_BINARY_DIR) / "output_test";
  std::filesystem::remove_all(root);
  run_into(root.string(), "fifo", jobs, cluster);
  const std::string summary = slurp(root / "fifo" / "summary.json", false);
  for (const char* key : {"policy", "placement", "cluster", "trace", "seed", "gpus", "jobs", "avg_jct_s",
                          "p50_jct_s", "p95_jct_s", "p99_jct_s", "avg_queue_s", "makespan_s", "makespan_utilization",
                          "preemptions", "wall_time_s", "events", "wakeups", "scheduling_rounds", "dropped_jobs",
                          "queues", "window_start_s", "window_end_s", "window_utilization", "work_utilization",
                          "idle_gpu_hours_while_waiting", "max_queue_s", "slowdown_p50", "slowdown_p95",
                          "slowdown_p99", "fairness_shortfall_gpu_hours", "fairness_shortfall_share",
                          "offered_load", "reference_gpu", "multi_node_jobs", "avg_jct_multi_node_s"}) {
    EXPECT_NE(summary.find(std::string("\"") + key + "\""), std::string::npos) << key;
  }
  const std::string header = slurp(root / "fifo" / "jobs.csv", false).substr(0, 120);
  EXPECT_EQ(header.rfind("job_id,name,queue,user,gpus,submit_s,first_start_s,end_s,jct_s,queue_s,", 0), 0u);
}

TEST(Output, FormatSecondsIsExact) {
  EXPECT_EQ(sim::format_seconds(Time::from_seconds(12), Time::zero()), "12");
  EXPECT_EQ(sim::format_seconds(Time::from_micros(12'000'250), Time::zero()), "12.000250");
  EXPECT_EQ(sim::format_seconds(Time::from_seconds(5), Time::from_seconds(7)), "-2");
}

}  // namespace
}  // namespace boreas
