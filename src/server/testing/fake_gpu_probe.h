#pragma once
// A GPU probe with fixed readings, for tests: the fake stands only at the NVML boundary
// (GpuProbe). GPU 0: 42% busy, 1 GiB used, 61 °C, 312.5 W; GPU 1: idle, 35 °C, 70 W.

#include <atomic>

#include "server/telemetry/gpu_probe.h"

namespace boreas::server {

class FakeGpuProbe final : public GpuProbe {
 public:
  std::vector<GpuDevice> devices() override {
    return {{0, "NVIDIA H100 80GB HBM3", 85'899'345'920}, {1, "NVIDIA H100 80GB HBM3", 85'899'345'920}};
  }
  std::vector<GpuSample> sample() override {
    ++samples;
    return {{0, 42, 1'073'741'824, 61, 312'500}, {1, 0, 0, 35, 70'000}};
  }
  std::atomic<int> samples{0};
};

}  // namespace boreas::server
