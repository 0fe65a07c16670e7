#pragma once
// GPUs of this machine: from NVML when the driver is installed (loaded at run time, so the
// daemon needs no NVIDIA package to build or run), else the GPUs the cluster spec declares.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace boreas::server {

struct GpuDevice {
  uint32_t index = 0;
  std::string name;
  uint64_t memory_bytes = 0;
};

struct GpuSample {
  uint32_t index = 0;
  uint32_t utilization_pct = 0;
  uint64_t memory_used_bytes = 0;
  uint32_t temperature_c = 0;
  uint32_t power_mw = 0;
};

class GpuProbe {
 public:
  virtual ~GpuProbe() = default;
  virtual std::vector<GpuDevice> devices() = 0;
  virtual std::vector<GpuSample> sample() = 0;
};

// Opens NVML from `library`; nullptr when the library or a driver is absent.
std::unique_ptr<GpuProbe> open_nvml(const std::string& library = "libnvidia-ml.so.1");

// The GPUs to schedule on: the probe's when it finds any, else `declared` numbered 0..n-1.
std::vector<GpuDevice> discover_gpus(GpuProbe* probe, uint32_t declared, const std::string& type);

}  // namespace boreas::server
