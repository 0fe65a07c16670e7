// The example specs: hand-computed summaries, and no crash on truncated or mutated copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "config/cluster_spec.h"
#include "config/cluster_summary.h"

namespace boreas::config {
namespace {

const std::string kExamples = std::string(BOREAS_SOURCE_DIR) + "/examples/clusters/";
// Every example cluster, so a new one is covered without editing this list.
std::vector<std::string> example_names() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kExamples)) {
    if (e.path().extension() == ".yaml") {
      names.push_back(e.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ClusterSummary summary_of(const std::string& name) {
  Result<Cluster> r = load_cluster_file(kExamples + name + ".yaml");
  EXPECT_TRUE(r.is_ok()) << (r.is_ok() ? "" : r.status().message());
  return r.is_ok() ? summarize(*r) : ClusterSummary{};
}

TEST(Examples, HybridMatchesItsGroupArithmetic) {
  // Groups as written in hybrid.yaml: h100 128 x 8 H100-SXM at 4/rack, a100 128 x 8 A100-80G at
  // 4/rack, l4 64 x 4 L4 at 8/rack, cpu 64 CPU-only at 16/rack.
  const ClusterSummary s = summary_of("hybrid");
  EXPECT_EQ(s.nodes, 128u + 128 + 64 + 64);
  EXPECT_EQ(s.cpu_only_nodes, 64u);
  EXPECT_EQ(s.racks, 128u / 4 + 128 / 4 + 64 / 8 + 64 / 16);
  EXPECT_EQ(s.gpus, 128u * 8 + 128 * 8 + 64 * 4);
  ASSERT_EQ(s.gpu_types.size(), 3u);
  EXPECT_EQ(s.gpu_types[0].type, "H100-SXM");
  EXPECT_EQ(s.gpu_types[0].gpus, 1024u);
  EXPECT_EQ(s.gpu_types[2].type, "L4");
  EXPECT_EQ(s.gpu_types[2].gpus, 256u);
  // FACTS §1.1 peaks: H100 989/1979/495/67, A100 312/-/156/19.5, L4 121/242.5/60/30.3 TFLOPS.
  EXPECT_NEAR(s.peak.bf16, (1024 * 989 + 1024 * 312 + 256 * 121) / 1000.0, 1e-9);
  EXPECT_NEAR(s.peak.fp8, (1024 * 1979 + 256 * 242.5) / 1000.0, 1e-9);
  EXPECT_NEAR(s.peak.tf32, (1024 * 495 + 1024 * 156 + 256 * 60) / 1000.0, 1e-9);
  EXPECT_NEAR(s.peak.fp32, (1024 * 67 + 1024 * 19.5 + 256 * 30.3) / 1000.0, 1e-9);
  // Node envelope = TDP x GPUs + 500 W + 200 W per GPU.
  const double h100_kw = 8 * 0.7 + 0.5 + 1.6, a100_kw = 8 * 0.4 + 0.5 + 1.6, l4_kw = 4 * 0.072 + 0.5 + 0.8;
  EXPECT_NEAR(s.it_power_kw, 128 * h100_kw + 128 * a100_kw + 64 * l4_kw + 64 * 0.5, 1e-6);
  EXPECT_NEAR(s.facility_power_kw,
              128 * h100_kw * 1.15 + 128 * a100_kw * 1.45 + (64 * l4_kw + 64 * 0.5) * 1.45, 1e-6);
  EXPECT_NEAR(s.on_demand_usd_per_hour, 1024 * 2.95 + 1024 * 1.90 + 256 * 0.75, 1e-6);
  ASSERT_EQ(s.zones.size(), 3u);
  EXPECT_EQ(s.zones[0].cooling, "direct-liquid");
  EXPECT_EQ(s.zones[0].racks, 32u);
  EXPECT_EQ(s.zones[2].nodes, 128u);
}

TEST(Examples, OpenbMatchesTheTraceNodeList) {
  // Counts from shared traces/alibaba-pai-gpu-2023/SOURCE.md.
  const ClusterSummary s = summary_of("openb");
  EXPECT_EQ(s.nodes, 1523u);
  EXPECT_EQ(s.cpu_only_nodes, 310u);
  EXPECT_EQ(s.gpus, 6212u);
  const std::map<std::string, std::pair<uint32_t, uint32_t>> expected = {
      {"G2", {549, 4392}}, {"T4", {404, 842}},      {"P100", {134, 265}}, {"V100-16G", {55, 195}},
      {"G3", {39, 312}},   {"V100-32G", {30, 204}}, {"A10", {2, 2}}};
  ASSERT_EQ(s.gpu_types.size(), expected.size());
  for (const auto& t : s.gpu_types) {
    ASSERT_TRUE(expected.count(t.type)) << t.type;
    EXPECT_EQ(t.nodes, expected.at(t.type).first) << t.type;
    EXPECT_EQ(t.gpus, expected.at(t.type).second) << t.type;
    EXPECT_EQ(t.placeholder, t.type == "G2" || t.type == "G3");
  }
}

TEST(Examples, PhillyAndPeerClusters) {
  const ClusterSummary philly = summary_of("philly");
  EXPECT_EQ(philly.nodes, 64u);
  EXPECT_EQ(philly.gpus, 512u);
  EXPECT_EQ(philly.racks, 8u);
  const ClusterSummary p64 = summary_of("peer-64");
  EXPECT_EQ(p64.gpus, 64u);
  EXPECT_EQ(p64.nodes, 8u);
  EXPECT_EQ(p64.racks, 1u);
  const ClusterSummary p48 = summary_of("peer-48");
  EXPECT_EQ(p48.gpus, 48u);
  EXPECT_EQ(p48.nodes, 6u);
  EXPECT_EQ(p48.racks, 1u);
}

// spot.yaml: an on-demand and a spot zone of 32 nodes x 8 H100-SXM each.
TEST(Examples, SpotHasAnOnDemandAndASpotZone) {
  const ClusterSummary spot = summary_of("spot");
  ASSERT_EQ(spot.zones.size(), 2u);
  EXPECT_FALSE(spot.zones[0].spot);
  EXPECT_TRUE(spot.zones[1].spot);
  EXPECT_EQ(spot.zones[0].gpus, 256u);
  EXPECT_EQ(spot.zones[1].gpus, 256u);
  EXPECT_EQ(spot.nodes, 64u);
  EXPECT_EQ(spot.racks, 32u);
}

// Loads `text` and checks it either loads or fails with "name:line:col: what; hint".
void expect_no_crash(const std::string& text, const std::string& label) {
  static const std::regex located(R"(^m\.yaml:[0-9]+:[0-9]+: [^;]+; .+)");
  Result<Cluster> r = load_cluster_string(text, "m.yaml");
  if (!r.is_ok()) {
    EXPECT_TRUE(std::regex_search(r.status().message(), located)) << label << ": " << r.status().message();
  }
}

TEST(Examples, TruncatedAndMutatedSpecsNeverCrash) {
  const std::string bytes = ":{}[]-#&*!|>\"' \n\t0x";
  const std::vector<std::string> names = example_names();
  EXPECT_GE(names.size(), 7u);
  for (const auto& name : names) {
    const std::string text = slurp(kExamples + name + ".yaml");
    ASSERT_FALSE(text.empty()) << name;
    const size_t step = std::max<size_t>(1, text.size() / 150);
    for (size_t cut = 0; cut < text.size(); cut += step) {
      expect_no_crash(text.substr(0, cut), name + " cut at " + std::to_string(cut));
    }
    for (size_t pos = 0, k = 0; pos < text.size(); pos += step, ++k) {
      std::string mutated = text;
      mutated[pos] = bytes[k % bytes.size()];
      expect_no_crash(mutated, name + " mutated at " + std::to_string(pos));
    }
  }
}

}  // namespace
}  // namespace boreas::config
