#pragma once
// Each zone's racks in rack order where the zone has a power cap (power_cap_kw > 0), none where it
// has not: the lists Physics::enforce_zone_cap hands cap_group, built once at construction instead
// of by a scan of every rack on every rack pass.

#include <cstdint>
#include <vector>

#include "core/topology.h"

namespace boreas::sim {

inline std::vector<std::vector<uint32_t>> racks_of_capped_zones(const Cluster& cluster) {
  std::vector<std::vector<uint32_t>> out(cluster.zones.size());
  for (uint32_t r = 0; r < cluster.racks.size(); ++r) {
    const uint32_t zone = cluster.racks[r].zone.value();
    if (cluster.zones[zone].power_cap_kw > 0) {
      out[zone].push_back(r);
    }
  }
  return out;
}

}  // namespace boreas::sim
