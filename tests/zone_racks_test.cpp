// Property: racks_of_capped_zones (sim/zone_racks.h; built once by Physics) lists, for each zone,
// the racks the rack pass used to collect on every call of enforce_zone_cap: every rack of the
// zone in rack order when the zone's cap is above 0, none otherwise. Random clusters of 1–6 zones
// and 0–40 racks, caps of 0, negative, positive or NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "sim/zone_racks.h"

namespace boreas::sim {
namespace {

// The per-call scan enforce_zone_cap did before (engine14).
std::vector<uint32_t> scanned_racks(const Cluster& c, uint32_t zone) {
  std::vector<uint32_t> racks;
  for (uint32_t r = 0; r < c.racks.size() && c.zones[zone].power_cap_kw > 0; ++r) {
    if (c.racks[r].zone.value() == zone) {
      racks.push_back(r);
    }
  }
  return racks;
}

TEST(ZoneRacksProperty, PrecomputedListsEqualThePerCallScanOnRandomClusters) {
  std::mt19937_64 rng(23);
  const double caps[] = {0.0, -1.0, 4.0, 0.5, std::numeric_limits<double>::quiet_NaN()};
  for (int round = 0; round < 2000; ++round) {
    Cluster c;
    const uint32_t zones = 1 + static_cast<uint32_t>(rng() % 6);
    for (uint32_t z = 0; z < zones; ++z) {
      c.zones.push_back(Zone{.name = "z", .power_cap_kw = caps[rng() % 5]});
    }
    const uint32_t racks = static_cast<uint32_t>(rng() % 41);
    for (uint32_t r = 0; r < racks; ++r) {
      c.racks.push_back(Rack{.name = "r", .zone = ZoneId(static_cast<uint32_t>(rng() % zones))});
    }
    const std::vector<std::vector<uint32_t>> lists = racks_of_capped_zones(c);
    ASSERT_EQ(lists.size(), zones);
    for (uint32_t z = 0; z < zones; ++z) {
      ASSERT_EQ(lists[z], scanned_racks(c, z)) << "round " << round << " zone " << z;
    }
  }
}

}  // namespace
}  // namespace boreas::sim
