// Property: runs.csv's nodes column (sim/output.cpp) lists, for every run, the distinct nodes of
// its GPUs in GPU order, each once, and its gpus column their count, checked line by line against
// the run records of a preempting run whose gangs span nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/output.h"
#include "support/cluster_builder.h"
#include "support/peer_case.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

// The nodes of these GPUs as the definition says: each GPU's node is the one whose GPU range holds it.
std::string nodes_of(std::vector<GpuId> gpus, const Cluster& cluster) {
  std::sort(gpus.begin(), gpus.end());
  std::string out;
  const Node* last = nullptr;
  for (GpuId g : gpus) {
    for (const Node& n : cluster.nodes) {
      if (g.value() >= n.first_gpu && g.value() < n.first_gpu + n.gpu_count && &n != last) {
        out += (out.empty() ? "" : ";") + n.name;
        last = &n;
      }
    }
  }
  return out;
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

TEST(RunsCsvProperty, NodesColumnListsEachRunsNodesInGpuOrder) {
  const auto jobs = testing::read_peer_case(BOREAS_SOURCE_DIR "/data/peer-cases/synth1000.csv");
  const Cluster cluster = testing::uniform_cluster(2, 4, 8);
  policy::PolicyOptions options;
  options.placement = "count";
  sim::EngineOptions engine;
  engine.preemption_overhead = Duration::seconds(10);
  auto out = testing::simulate({&cluster, jobs.jobs, &jobs.symbols}, "las", options, engine);
  ASSERT_TRUE(out.is_ok());
  const std::filesystem::path dir = std::filesystem::path(BOREAS_BINARY_DIR) / "runs_csv_test";
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(sim::write_run(dir.string(), *out, sim::OutputInfo{}, cluster, jobs.jobs, jobs.symbols).is_ok());
  std::ifstream in(dir / "runs.csv");
  std::string line;
  std::getline(in, line);  // header
  size_t multi_node = 0;
  for (const sim::RunRecord& r : out->result.runs) {
    ASSERT_TRUE(std::getline(in, line));
    const std::vector<std::string> f = fields(line);
    ASSERT_EQ(f.size(), 7u) << line;
    const std::string want = nodes_of(r.gpus, cluster);
    EXPECT_EQ(f[4], want) << line;
    EXPECT_EQ(f[5], std::to_string(r.gpus.size())) << line;
    multi_node += want.find(';') != std::string::npos ? 1 : 0;
  }
  EXPECT_FALSE(std::getline(in, line)) << "a line past the runs: " << line;
  EXPECT_GT(multi_node, 10u);  // gangs across nodes, so a node boundary is crossed inside runs
}

}  // namespace
}  // namespace boreas
