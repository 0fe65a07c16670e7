#include "core/gpu_match.h"

#include <gtest/gtest.h>

namespace boreas {
namespace {

GpuType type(std::string name, std::vector<std::string> aliases, double memory_gib) {
  GpuType t;
  t.name = std::move(name);
  t.aliases = std::move(aliases);
  t.memory_gib = memory_gib;
  return t;
}

// A100-40G, A100-80G (with the bare "A100" alias), H100-SXM and H100-PCIe, as in data/gpus.yaml.
GpuCatalog two_a100s() {
  GpuCatalog c;
  EXPECT_TRUE(c.add(type("A100-40G", {"A100-SXM4-40GB"}, 40)));
  EXPECT_TRUE(c.add(type("A100-80G", {"A100", "A100-SXM4-80GB"}, 80)));
  EXPECT_TRUE(c.add(type("H100-SXM", {"H100", "H100-80GB-HBM3"}, 80)));
  EXPECT_TRUE(c.add(type("H100-PCIe", {"H100-PCIE-80GB"}, 80)));
  return c;
}

TEST(GpuNameKey, DropsVendorCaseSeparatorsAndMemoryKind) {
  EXPECT_EQ(gpu_name_key("NVIDIA A100-SXM4-80GB"), (GpuNameKey{"a100", 80, "sxm"}));
  EXPECT_EQ(gpu_name_key("nvidia_a100-sxm4-80gb"), (GpuNameKey{"a100", 80, "sxm"}));
  EXPECT_EQ(gpu_name_key("NVIDIA H100 80GB HBM3"), (GpuNameKey{"h100", 80, ""}));
  EXPECT_EQ(gpu_name_key("Tesla V100-PCIE-32GB"), (GpuNameKey{"v100", 32, "pcie"}));
  EXPECT_EQ(gpu_name_key("A100-40G"), (GpuNameKey{"a100", 40, ""}));
  EXPECT_EQ(gpu_name_key("GeForce RTX 4090"), (GpuNameKey{"geforce-rtx-4090", 0, ""}));
}

TEST(GpuTypeMatch, ToolSpellingsResolveToOneType) {
  const GpuCatalog c = two_a100s();
  for (const char* name : {"nvidia-a100-80gb", "NVIDIA-A100-SXM4-80GB", "nvidia_a100-sxm4-80gb",
                           "NVIDIA A100-SXM4-80GB", "a100_80g"}) {
    const GpuTypeMatch m = match_gpu_type(c, name);
    ASSERT_TRUE(m.id.has_value()) << name;
    EXPECT_EQ(c.at(*m.id).name, "A100-80G") << name;
  }
  EXPECT_EQ(c.at(*match_gpu_type(c, "NVIDIA H100 80GB HBM3").id).name, "H100-SXM");
  EXPECT_EQ(c.at(*match_gpu_type(c, "NVIDIA H100 PCIe").id).name, "H100-PCIe");
  EXPECT_EQ(c.at(*match_gpu_type(c, "nvidia-h100-sxm5-80gb").id).name, "H100-SXM");
}

TEST(GpuTypeMatch, BareFamilyFollowsTheCatalogAlias) {
  const GpuCatalog c = two_a100s();
  EXPECT_EQ(c.at(*match_gpu_type(c, "a100").id).name, "A100-80G");
  EXPECT_EQ(c.at(*match_gpu_type(c, "NVIDIA_A100").id).name, "A100-80G");  // same key as the alias
}

TEST(GpuTypeMatch, AmbiguousNamesMatchNothingAndListTheCandidates) {
  const GpuCatalog c = two_a100s();
  const GpuTypeMatch m = match_gpu_type(c, "A100-SXM4");  // 40 or 80 GB?
  EXPECT_FALSE(m.id.has_value());
  ASSERT_EQ(m.candidates.size(), 2u);
  EXPECT_EQ(c.at(m.candidates[0]).name, "A100-40G");
  EXPECT_EQ(c.at(m.candidates[1]).name, "A100-80G");
  EXPECT_FALSE(c.find("A100-SXM4").has_value());
}

TEST(GpuTypeMatch, ContradictionsAndOtherModelsAreUnknown) {
  const GpuCatalog c = two_a100s();
  for (const char* name : {"a100-16gb", "nvidia_a100-pcie-40gb", "nvidia-a10", "h100-nvl", "b200", "", "nvidia"}) {
    const GpuTypeMatch m = match_gpu_type(c, name);
    EXPECT_FALSE(m.id.has_value()) << name;
    EXPECT_TRUE(m.candidates.empty()) << name;
  }
}

TEST(GpuTypeMatch, PcieNameDoesNotMatchAnSxmOnlyType) {
  GpuCatalog c;
  ASSERT_TRUE(c.add(type("V100-32G", {"V100-SXM2-32GB"}, 32)));
  EXPECT_FALSE(c.find("Tesla V100-PCIE-32GB").has_value());
  EXPECT_TRUE(c.find("Tesla V100-SXM2-32GB").has_value());
}

}  // namespace
}  // namespace boreas
