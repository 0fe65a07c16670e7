#include <gtest/gtest.h>

#include <utility>

#include "config/cluster_spec.h"
#include "config/gpu_catalog_yaml.h"

namespace boreas::config {
namespace {

const std::string kFixtures = std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/config/";

TEST(BuiltinCatalog, HasEveryRequiredTypeWithNonZeroFigures) {
  const GpuCatalog& c = builtin_gpu_catalog();
  for (const char* name : {"H100-SXM", "H100-PCIe", "H200", "B200", "A100-40G", "A100-80G", "A30", "L4", "T4",
                           "V100-16G", "V100-32G", "MI300X", "P100", "A10", "G2", "G3"}) {
    const auto id = c.find(name);
    ASSERT_TRUE(id.has_value()) << name;
    const GpuType& t = c.at(*id);
    EXPECT_EQ(t.name, name);
    EXPECT_GT(t.bf16_tflops, 0) << name;
    EXPECT_GT(t.fp32_tflops, 0) << name;
    EXPECT_GT(t.memory_gib, 0) << name;
    EXPECT_GT(t.memory_bandwidth_gbps, 0) << name;
    EXPECT_GT(t.tdp_w, 0) << name;
    EXPECT_GT(t.idle_w, 0) << name;
    EXPECT_LT(t.idle_w, t.tdp_w) << name;
  }
}

// The spellings of issue 15: Kubernetes labels, Slurm GRES/autodetect and NVML names.
TEST(BuiltinCatalog, MatchesKubernetesSlurmAndNvmlSpellings) {
  const GpuCatalog& c = builtin_gpu_catalog();
  const std::pair<const char*, const char*> cases[] = {
      {"nvidia-a100-80gb", "A100-80G"},          {"NVIDIA-A100-SXM4-80GB", "A100-80G"},
      {"nvidia_a100-sxm4-80gb", "A100-80G"},     {"a100", "A100-80G"},
      {"NVIDIA A100-SXM4-80GB", "A100-80G"},     {"NVIDIA A100-SXM4-40GB", "A100-40G"},
      {"NVIDIA H100 80GB HBM3", "H100-SXM"},     {"nvidia_h100_80gb_hbm3", "H100-SXM"},
      {"NVIDIA H100 PCIe", "H100-PCIe"},         {"Tesla V100-SXM2-32GB", "V100-32G"},
      {"tesla-v100-sxm2-16gb", "V100-16G"},      {"NVIDIA L4", "L4"},
      {"Tesla T4", "T4"},                        {"AMD Instinct MI300X", "MI300X"},
  };
  for (const auto& [name, want] : cases) {
    const auto id = c.find(name);
    ASSERT_TRUE(id.has_value()) << name;
    EXPECT_EQ(c.at(*id).name, want) << name;
  }
  EXPECT_FALSE(c.find("NVIDIA A10G").has_value());  // an A10G is not an A10
  EXPECT_FALSE(c.find("nvidia-a100-pcie-40gb").has_value());  // the catalog's A100s are SXM parts
}

TEST(BuiltinCatalog, PricesFromFactsAreSet) {
  const GpuCatalog& c = builtin_gpu_catalog();
  for (const char* name : {"H100-SXM", "H100-PCIe", "H200", "B200", "A100-40G", "A100-80G", "L4", "T4",
                           "V100-16G", "V100-32G", "MI300X"}) {
    const GpuType& t = c.at(*c.find(name));
    EXPECT_GT(t.price.on_demand_usd_per_hour, 0) << name;
    EXPECT_FALSE(t.price.source.empty()) << name;
  }
}

TEST(BuiltinCatalog, FactsFiguresAndMeasuredIdle) {
  const GpuCatalog& c = builtin_gpu_catalog();
  const GpuType& h100 = c.at(*c.find("H100-SXM"));
  EXPECT_EQ(h100.bf16_tflops, 989);
  EXPECT_EQ(h100.fp8_tflops, 1979);
  EXPECT_EQ(h100.nvlink_gbps, 450);
  EXPECT_EQ(c.at(*c.find("A100-80G")).idle_w, 68);
  EXPECT_EQ(c.at(*c.find("H200")).idle_w, 74);
  EXPECT_FALSE(c.at(*c.find("A100-80G")).fp8_tflops.has_value());
  EXPECT_EQ(c.at(*c.find("L4")).nvlink_gbps, 0);
}

TEST(BuiltinCatalog, TraceSpellingsAreAliases) {
  const GpuCatalog& c = builtin_gpu_catalog();
  EXPECT_EQ(c.at(*c.find("V100M16")).name, "V100-16G");
  EXPECT_EQ(c.at(*c.find("V100M32")).name, "V100-32G");
}

TEST(BuiltinCatalog, OnlyUndisclosedTypesArePlaceholders) {
  for (const auto& t : builtin_gpu_catalog().types()) {
    EXPECT_EQ(t.placeholder, t.name == "G2" || t.name == "G3") << t.name;
    if (t.placeholder) {
      EXPECT_FALSE(t.note.empty()) << t.name;
    }
  }
}

TEST(UserCatalog, AddsATypeWithTheSameSchema) {
  Result<Cluster> r = load_cluster_file(kFixtures + "with-catalog.yaml");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->catalog.size(), builtin_gpu_catalog().size() + 1);
  const GpuType& t = r->catalog.at(*r->catalog.find("GB200"));
  EXPECT_EQ(t.bf16_tflops, 2500);
  EXPECT_EQ(t.idle_w, 120);  // default rule: 0.1 x TDP
  EXPECT_EQ(t.price.on_demand_usd_per_hour, 10.5);
  EXPECT_EQ(r->gpu_count(), 72u);
  EXPECT_EQ(r->nodes[0].gpu_type, r->catalog.find("GB200"));
}

TEST(UserCatalog, RejectsARedefinedType) {
  GpuCatalog c = builtin_gpu_catalog();
  const Status s = add_catalog_yaml(
      "types:\n  - {name: h100-sxm, bf16_tflops: 1, fp32_tflops: 1, memory_gib: 1, memory_bandwidth_gbps: 1, "
      "tdp_w: 1}\n",
      "mine.yaml", &c);
  EXPECT_EQ(
      s.message(),
      "mine.yaml:2:5: GPU type 'h100-sxm' (or one of its aliases) is already defined; give the type a new "
      "name, or drop the duplicate alias");
}

TEST(UserCatalog, ReportsMissingFigures) {
  GpuCatalog c;
  const Status s = add_catalog_yaml("types:\n  - {name: X1, bf16_tflops: 1}\n", "mine.yaml", &c);
  EXPECT_EQ(s.message(),
            "mine.yaml:2:5: GPU type 'X1' is missing required key 'fp32_tflops'; add 'fp32_tflops: ...'");
}

TEST(UserCatalog, IdleAboveTdpIsAnError) {
  GpuCatalog c;
  const Status s = add_catalog_yaml(
      "types:\n  - {name: X1, bf16_tflops: 1, fp32_tflops: 1, memory_gib: 1, memory_bandwidth_gbps: 1, "
      "tdp_w: 100, "
      "idle_w: 150}\n",
      "mine.yaml", &c);
  EXPECT_EQ(s.message(),
            "mine.yaml:2:109: idle_w of GPU type 'X1' exceeds its tdp_w; idle draw must be at most the TDP");
}

TEST(UserCatalog, NeedsATypesList) {
  GpuCatalog c;
  EXPECT_EQ(add_catalog_yaml("typs: []\n", "mine.yaml", &c).message(),
            "mine.yaml:1:1: unknown key 'typs' in GPU catalog; did you mean 'types'?");
  EXPECT_EQ(
      add_catalog_yaml("types: 3\n", "mine.yaml", &c).message(),
      "mine.yaml:1:8: GPU catalog needs a 'types' list; write 'types:' followed by '- name: ...' entries");
}

}  // namespace
}  // namespace boreas::config
