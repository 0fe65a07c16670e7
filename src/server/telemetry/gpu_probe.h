#pragma once
// GPUs of this machine: from NVML when the driver is installed (loaded at run time, so the
// daemon needs no NVIDIA package to build or run), else the GPUs the cluster spec declares.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/topology.h"

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

// Makes this machine's node in `cluster` hold the GPUs NVML found (`found`), so that scheduling
// uses the real count: the GPU node named `host`, else the only GPU node. Nothing changes when
// `found` is empty (no driver: the declared GPUs are used) or no node can be told to be this
// machine. Returns what it did or why not, for the daemon's log; empty when `found` is empty.
std::string adopt_discovered_gpus(Cluster& cluster, std::span<const GpuDevice> found, const std::string& host);

}  // namespace boreas::server
