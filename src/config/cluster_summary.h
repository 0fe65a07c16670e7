#pragma once
// What `boreas cluster show` reports: counts, peak compute, power envelope and hourly price.

#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.h"

namespace boreas::config {

struct GpuTypeSummary {
  std::string type;
  uint32_t nodes = 0;
  uint32_t gpus = 0;
  bool placeholder = false;
};

struct ZoneSummary {
  std::string name;
  std::string cooling;
  double pue = 0;
  bool spot = false;  // capacity the provider may reclaim
  uint32_t racks = 0;
  uint32_t nodes = 0;
  uint32_t gpus = 0;
  double it_power_kw = 0;
};

// Peak dense PFLOPS; a precision a type lacks (e.g. FP8 on A100) contributes nothing.
struct PeakPflops {
  double bf16 = 0;
  double fp8 = 0;
  double tf32 = 0;
  double fp32 = 0;
};

struct ClusterSummary {
  std::string name;
  uint32_t racks = 0;
  uint32_t nodes = 0;
  uint32_t cpu_only_nodes = 0;
  uint32_t gpus = 0;
  int64_t cpus = 0;  // whole cores
  int64_t memory_gib = 0;
  std::vector<ZoneSummary> zones;
  std::vector<GpuTypeSummary> gpu_types;  // catalog order, only types present
  PeakPflops peak;
  double it_power_kw = 0;        // Σ node_power_envelope_w
  double facility_power_kw = 0;  // Σ zone IT power × zone PUE
  double on_demand_usd_per_hour = 0;
};

ClusterSummary summarize(const Cluster& cluster);

}  // namespace boreas::config
