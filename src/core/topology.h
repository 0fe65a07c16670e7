#pragma once
// The physical cluster (ARCHITECTURE §4): Cluster → Zone → Rack → Node → GPU, plus the network
// fabric. Plain data: config/ builds it from YAML, state/ indexes it, models/ reads it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/gpu.h"
#include "core/ids.h"
#include "core/time.h"

namespace boreas {

enum class CoolingKind { kAir, kDirectLiquid, kImmersion };
std::string_view to_string(CoolingKind kind);

struct Zone {
  std::string name;
  CoolingKind cooling = CoolingKind::kAir;
  double inlet_c = 25;       // supply air (air) or coolant (liquid, immersion) temperature, °C
  double pue = 1.5;          // facility energy / IT energy
  double power_cap_kw = 0;   // 0 = no cap
  bool spot = false;         // capacity may be reclaimed (spot / preemptible)
};

struct Rack {
  std::string name;
  ZoneId zone;
  double power_limit_kw = 0;    // electrical limit; 0 = unlimited
  double cooling_limit_kw = 0;  // heat the rack's cooling removes at nominal inlet; 0 = unlimited
  uint32_t leaf = 0;            // leaf (top-of-rack) switch index
  uint32_t spine = 0;           // spine / pod index above the leaf
};

struct Node {
  std::string name;
  RackId rack;
  std::optional<GpuTypeId> gpu_type;  // empty for CPU-only nodes
  uint32_t gpu_count = 0;
  uint32_t first_gpu = 0;  // GpuId of this node's GPU 0; its GPUs are consecutive
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  bool nvlink = false;  // GPUs share an NVLink/NVSwitch domain (else PCIe between them)
};

// One level of the network, innermost first: nvlink (inside a node), leaf, spine.
struct FabricTier {
  std::string name;
  double bandwidth_gbps = 0;  // per GPU, per direction, GB/s
  Duration latency;           // per message step (the α of the α-β model)
};

struct Cluster {
  std::string name;
  GpuCatalog catalog;
  std::vector<Zone> zones;
  std::vector<Rack> racks;
  std::vector<Node> nodes;
  std::vector<FabricTier> fabric;

  uint32_t gpu_count() const;
  const Zone& zone_of(const Node& n) const { return zones[racks[n.rack.value()].zone.value()]; }
  const Rack& rack_of(const Node& n) const { return racks[n.rack.value()]; }
};

}  // namespace boreas
