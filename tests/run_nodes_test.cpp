// Property: RunNodesField (sim/run_nodes.h; runs.csv's nodes column, output15) appends what the
// writer appended before: the GPU list sorted, each GPU's node found by a binary search over the
// nodes' first GPUs unless the last node found holds it, the names joined by ';' and the field
// quoted as CSV when it needs it. Random clusters (CPU-only nodes, names with ',', '"', ';' or
// empty) and random GPU lists, sorted or not, appended after text already in the line.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/run_nodes.h"

namespace boreas::sim {
namespace {

// The writer's per-run code before output15 (sim/output.cpp: node_of_gpu, run_nodes, csv).
uint32_t searched_node_of_gpu(const Cluster& cluster, uint32_t g) {
  const auto it = std::upper_bound(cluster.nodes.begin(), cluster.nodes.end(), g,
                                   [](uint32_t v, const Node& n) { return v < n.first_gpu; });
  return static_cast<uint32_t>(it - cluster.nodes.begin() - 1);
}

std::string plain_field(std::vector<GpuId> gpus, const Cluster& cluster) {
  std::string nodes;
  std::sort(gpus.begin(), gpus.end());
  uint32_t last = UINT32_MAX;
  for (GpuId g : gpus) {
    const Node* held = last == UINT32_MAX ? nullptr : &cluster.nodes[last];
    if (held != nullptr && g.value() >= held->first_gpu && g.value() < held->first_gpu + held->gpu_count) {
      continue;
    }
    last = searched_node_of_gpu(cluster, g.value());
    nodes += nodes.empty() ? "" : ";";
    nodes += cluster.nodes[last].name;
  }
  if (nodes.find_first_of(",\"\n") == std::string::npos) {
    return nodes;
  }
  std::string out = "\"";
  for (char c : nodes) {
    out += c == '"' ? "\"\"" : std::string(1, c);
  }
  return out + "\"";
}

std::string random_name(std::mt19937_64& rng, bool odd_names) {
  static const std::string plain = "abcxyz0123-";
  static const std::string odd = "ab,\";\n";
  const std::string& alphabet = odd_names ? odd : plain;
  std::string name(rng() % 5, ' ');  // sometimes empty
  for (char& c : name) {
    c = alphabet[rng() % alphabet.size()];
  }
  return name;
}

Cluster random_cluster(std::mt19937_64& rng) {
  Cluster c;
  const bool odd_names = rng() % 3 == 0;
  const size_t nodes = 1 + rng() % 12;
  uint32_t next = 0;
  for (size_t n = 0; n < nodes; ++n) {
    Node node;
    node.name = random_name(rng, odd_names);
    node.gpu_count = rng() % 4 == 0 ? 0 : static_cast<uint32_t>(1 + rng() % 8);  // some CPU-only
    node.first_gpu = next;
    next += node.gpu_count;
    c.nodes.push_back(node);
  }
  if (next == 0) {
    c.nodes.back().gpu_count = 1;
  }
  return c;
}

std::vector<GpuId> random_gpus(std::mt19937_64& rng, uint32_t gpu_count) {
  std::vector<GpuId> all;
  for (uint32_t g = 0; g < gpu_count; ++g) {
    all.emplace_back(g);
  }
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(1 + rng() % gpu_count);
  if (rng() % 2 == 0) {
    std::sort(all.begin(), all.end());  // the usual case: read in place
  }
  return all;
}

TEST(RunNodesFieldProperty, AppendsTheSortedSearchedJoinedQuotedField) {
  std::mt19937_64 rng(15);
  for (int trial = 0; trial < 3000; ++trial) {
    const Cluster cluster = random_cluster(rng);
    RunNodesField field(cluster);
    for (int run = 0; run < 20; ++run) {
      const std::vector<GpuId> gpus = random_gpus(rng, cluster.gpu_count());
      fmt::memory_buffer out;
      out.append(std::string_view("7,1,"));  // the line so far
      field.append(out, gpus);
      ASSERT_EQ(fmt::to_string(out), "7,1," + plain_field(gpus, cluster)) << "trial " << trial;
    }
  }
}

TEST(CsvFieldProperty, QuotesExactlyWhenNeeded) {
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 5000; ++trial) {
    const std::string s = random_name(rng, rng() % 2 == 0) + random_name(rng, true);
    fmt::memory_buffer out;
    append_csv_field(out, s);
    std::string expected = s;
    if (s.find_first_of(",\"\n") != std::string::npos) {
      expected = "\"";
      for (char c : s) {
        expected += c == '"' ? "\"\"" : std::string(1, c);
      }
      expected += "\"";
    }
    ASSERT_EQ(fmt::to_string(out), expected);
  }
}

}  // namespace
}  // namespace boreas::sim
