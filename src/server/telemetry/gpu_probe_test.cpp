#include "server/telemetry/gpu_probe.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "server/testing/test_cluster.h"

namespace boreas::server {
namespace {

TEST(GpuProbe, MissingLibraryMeansNoProbe) {
  EXPECT_EQ(open_nvml("libnvidia-ml-does-not-exist.so.1"), nullptr);
}

std::vector<GpuDevice> h100s(uint32_t n) {
  std::vector<GpuDevice> out;
  for (uint32_t i = 0; i < n; ++i) {
    out.push_back({i, "NVIDIA H100 80GB HBM3", uint64_t{80} << 30});
  }
  return out;
}

// The devices stand in for what NVML reports (no GPU on CI machines); the real probe is tested
// below where a driver exists.
TEST(GpuProbe, WithoutDevicesTheDeclaredGpusAreUsed) {
  Cluster c = test_cluster(1, 8);
  EXPECT_EQ(adopt_discovered_gpus(c, {}, "node0"), "");
  EXPECT_EQ(c.nodes[0].gpu_count, 8u);
}

TEST(GpuProbe, TheOnlyGpuNodeTakesTheGpusFound) {
  Cluster c = test_cluster(1, 8);
  const std::string said = adopt_discovered_gpus(c, h100s(2), "some-host");
  EXPECT_EQ(c.nodes[0].gpu_count, 2u);
  EXPECT_EQ(c.gpu_count(), 2u);
  EXPECT_NE(said.find("node node0: 2 GPU(s) (NVIDIA H100 80GB HBM3) found by NVML, the spec declared 8"),
            std::string::npos)
      << said;
  EXPECT_EQ(said.find("warning"), std::string::npos) << said;  // H100 family matches
}

TEST(GpuProbe, TheNodeNamedLikeTheHostTakesThemAndIdsStayConsecutive) {
  Cluster c = test_cluster(3, 4);
  adopt_discovered_gpus(c, h100s(8), "node1");
  EXPECT_EQ(c.nodes[1].gpu_count, 8u);
  EXPECT_EQ(c.nodes[0].first_gpu, 0u);
  EXPECT_EQ(c.nodes[1].first_gpu, 4u);
  EXPECT_EQ(c.nodes[2].first_gpu, 12u);
  EXPECT_EQ(c.gpu_count(), 16u);
}

TEST(GpuProbe, SeveralNodesAndNoneNamedLikeTheHostKeepTheSpec) {
  Cluster c = test_cluster(2, 4);
  const std::string said = adopt_discovered_gpus(c, h100s(8), "elsewhere");
  EXPECT_EQ(c.gpu_count(), 8u);
  EXPECT_EQ(c.nodes[0].gpu_count, 4u);
  EXPECT_NE(said.find("no GPU node of the cluster spec is named 'elsewhere'"), std::string::npos) << said;
}

TEST(GpuProbe, ATypeThatDoesNotMatchTheDeviceIsFlagged) {
  Cluster c = test_cluster(1, 8);
  c.nodes[0].gpu_type = GpuTypeId(1);  // A100
  const std::string said = adopt_discovered_gpus(c, h100s(1), "node0");
  EXPECT_EQ(c.nodes[0].gpu_count, 1u);
  EXPECT_NE(said.find("warning: the spec's type A100 does not look like the device found"), std::string::npos)
      << said;
}

// Runs only where an NVIDIA driver is installed (BOREAS_EXPECT_NVML=1 makes its absence fail).
TEST(GpuProbe, RealNvmlListsAndSamplesDevices) {
  auto probe = open_nvml();
  if (probe == nullptr) {
    if (std::getenv("BOREAS_EXPECT_NVML") != nullptr) {
      FAIL() << "BOREAS_EXPECT_NVML is set but libnvidia-ml.so.1 could not be opened";
    }
    GTEST_SKIP() << "no NVIDIA driver on this machine (libnvidia-ml.so.1 absent)";
  }
  const auto devices = probe->devices();
  ASSERT_FALSE(devices.empty());
  EXPECT_GT(devices[0].memory_bytes, 0u);
  const auto samples = probe->sample();
  ASSERT_EQ(samples.size(), devices.size());
  EXPECT_GT(samples[0].temperature_c, 0u);
  EXPECT_GT(samples[0].power_mw, 0u);
}

}  // namespace
}  // namespace boreas::server
