#include "models/site.h"

#include <gtest/gtest.h>

namespace boreas::models {
namespace {

// Air zone (25 °C, PUE 1.5): rack 0 with 2 nodes × 8 H100 and a 3 kW cooling limit.
// Liquid zone (35 °C, PUE 1.15, 5 kW cap): rack 1 with 1 node × 8 H100.
Cluster two_zone_cluster() {
  Cluster c;
  GpuType h100;
  h100.name = "H100-SXM";
  h100.tdp_w = 700;  // idle 70 W by the 0.1 × TDP rule
  EXPECT_TRUE(c.catalog.add(h100));
  Zone air;
  air.inlet_c = 25;
  air.pue = 1.5;
  Zone liquid;
  liquid.cooling = CoolingKind::kDirectLiquid;
  liquid.inlet_c = 35;
  liquid.pue = 1.15;
  liquid.power_cap_kw = 5;
  c.zones = {air, liquid};
  Rack r0;
  r0.zone = ZoneId(0);
  r0.cooling_limit_kw = 3;
  Rack r1;
  r1.zone = ZoneId(1);
  c.racks = {r0, r1};
  Node n;
  n.gpu_type = GpuTypeId(0);
  n.gpu_count = 8;
  n.nvlink = true;  // HGX baseboard: static 500 W + 200 W per GPU
  n.rack = RackId(0);
  Node m = n;
  m.rack = RackId(1);
  c.nodes = {n, n, m};
  return c;
}

// Activity 1: a node draws 8 × 700 + 500 + 8 × 200 = 7.7 kW; rack 0 = 15.4 kW, 12.4 kW over its
// limit → inlet 37.4 °C, T_ss = 37.4 + 50 = 87.4 °C > 87 (H100-SXM) → software slowdown:
// cap (87 − 37.4) × 14 = 694.4 W → clock ∛(624.4/630) = 0.997028.
TEST(Site, AirRackOverItsLimitThrottles) {
  const SiteThermal s = site_thermal(two_zone_cluster(), 1.0, PowerParams{}, ThermalParams{});
  ASSERT_EQ(s.racks.size(), 2u);
  const RackThermal& r = s.racks[0];
  EXPECT_EQ(r.gpus, 16u);
  EXPECT_NEAR(r.it_kw, 15.4, 1e-9);
  EXPECT_NEAR(r.inlet_c, 37.4, 1e-9);
  EXPECT_NEAR(r.gpu_temp_c, 87.4, 1e-9);
  EXPECT_EQ(r.throttle.level, Throttle::kSoftware);
  EXPECT_NEAR(r.throttle.clock, 0.997028, 1e-6);
}

// Liquid rack: 35 + 25 = 60 °C, no throttle. Zone cap 5 kW: fixed 2.1 kW static + 560 W idle,
// dynamic 5040 W → clock ∛(2340/5040) = 0.774334.
TEST(Site, LiquidZoneStaysCoolButHitsItsPowerCap) {
  const SiteThermal s = site_thermal(two_zone_cluster(), 1.0, PowerParams{}, ThermalParams{});
  EXPECT_NEAR(s.racks[1].gpu_temp_c, 60, 1e-9);
  EXPECT_EQ(s.racks[1].throttle.level, Throttle::kNone);
  ASSERT_EQ(s.zones.size(), 2u);
  EXPECT_NEAR(s.zones[0].it_kw, 15.4, 1e-9);
  EXPECT_NEAR(s.zones[0].facility_kw, 23.1, 1e-9);
  EXPECT_EQ(s.zones[0].cap.clock, 1.0);
  EXPECT_NEAR(s.zones[1].facility_kw, 7.7 * 1.15, 1e-9);
  EXPECT_NEAR(s.zones[1].cap.clock, 0.774334, 1e-6);
  EXPECT_TRUE(s.zones[1].cap.meets_cap);
}

}  // namespace
}  // namespace boreas::models
