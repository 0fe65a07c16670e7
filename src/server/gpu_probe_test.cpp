#include "server/gpu_probe.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace boreas::server {
namespace {

TEST(GpuProbe, MissingLibraryMeansNoProbe) {
  EXPECT_EQ(open_nvml("libnvidia-ml-does-not-exist.so.1"), nullptr);
}

TEST(GpuProbe, WithoutAProbeTheDeclaredGpusAreUsed) {
  const auto gpus = discover_gpus(nullptr, 3, "A100-SXM4-80GB");
  ASSERT_EQ(gpus.size(), 3u);
  EXPECT_EQ(gpus[2].index, 2u);
  EXPECT_EQ(gpus[2].name, "A100-SXM4-80GB");
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
