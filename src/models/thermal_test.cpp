#include "models/thermal.h"

#include <gtest/gtest.h>

#include <cmath>

namespace boreas::models {
namespace {

// A 700 W GPU with no per-type thresholds, so the defaults (85/89 °C, FACTS §3.2 T1) apply; the
// H100-SXM's own row (87/89 °C) is checked in PerTypeThresholds.
GpuType h100() {
  GpuType t;
  t.name = "GPU-700W";
  t.tdp_w = 700;  // idle 70 W by the 0.1 × TDP rule
  return t;
}

// Air: R = 50/700 °C/W, τ = 150 s.
TEST(Thermal, RcFromCalibration) {
  const Rc rc = rc_for(h100(), CoolingKind::kAir, ThermalParams{});
  EXPECT_NEAR(rc.r_c_per_w, 50.0 / 700, 1e-12);
  EXPECT_NEAR(rc.c_j_per_c, 2100, 1e-9);
  EXPECT_NEAR(rc.tau_s(), 150, 1e-9);
}

TEST(Thermal, SteadyStateAtTdpPerCoolingKind) {
  const ThermalParams p;
  EXPECT_NEAR(steady_state_c(25, 700, rc_for(h100(), CoolingKind::kAir, p)), 75, 1e-9);
  EXPECT_NEAR(steady_state_c(35, 700, rc_for(h100(), CoolingKind::kDirectLiquid, p)), 60, 1e-9);
  EXPECT_NEAR(steady_state_c(35, 700, rc_for(h100(), CoolingKind::kImmersion, p)), 65, 1e-9);
}

// One τ from 25 °C toward 75 °C: 75 − 50/e = 56.606028 °C.
TEST(Thermal, AdvanceOneTimeConstantByHand) {
  const Rc rc = rc_for(h100(), CoolingKind::kAir, ThermalParams{});
  EXPECT_NEAR(advance_c(25, 25, 700, rc, Duration::seconds(150)), 56.606028, 1e-6);
  // Two steps equal one step: closed form, not a fixed-step integration.
  const double half = advance_c(25, 25, 700, rc, Duration::seconds(75));
  EXPECT_NEAR(advance_c(half, 25, 700, rc, Duration::seconds(75)), 56.606028, 1e-6);
  // Cooling back down at idle power.
  EXPECT_NEAR(advance_c(75, 25, 0, rc, Duration::seconds(150)), 25 + 50 / std::exp(1.0), 1e-9);
}

// Throttle onset from 25 °C toward 75 °C at 70 °C: 150 · ln(50/5) = 345.387764 s.
TEST(Thermal, TimeToReachByHand) {
  const Rc rc = rc_for(h100(), CoolingKind::kAir, ThermalParams{});
  EXPECT_NEAR(time_to_reach(25, 70, 25, 700, rc).to_seconds(), 345.387764, 1e-6);
  EXPECT_EQ(time_to_reach(80, 70, 25, 700, rc), Duration::zero());
  EXPECT_TRUE(time_to_reach(25, 76, 25, 700, rc).is_infinite());
}

TEST(Thermal, AirRackOverItsCoolingLimitHeatsItsInlet) {
  const ThermalParams p;
  Zone air;
  air.inlet_c = 25;
  Rack rack;
  rack.cooling_limit_kw = 20;
  EXPECT_NEAR(rack_inlet_c(air, rack, 25, p), 30, 1e-12);
  EXPECT_NEAR(rack_inlet_c(air, rack, 15, p), 25, 1e-12);
  Zone liquid = air;
  liquid.cooling = CoolingKind::kDirectLiquid;
  EXPECT_NEAR(rack_inlet_c(liquid, rack, 25, p), 25, 1e-12);
  rack.cooling_limit_kw = 0;
  EXPECT_NEAR(rack_inlet_c(air, rack, 25, p), 25, 1e-12);
}

class ThrottleTest : public ::testing::Test {
 protected:
  ThrottleState at(double inlet) const {
    return throttle_state(h100(), 1.0, inlet, rc_for(h100(), CoolingKind::kAir, thermal_), power_, thermal_);
  }
  PowerParams power_;
  ThermalParams thermal_;
};

TEST_F(ThrottleTest, CoolInletDoesNotThrottle) {
  EXPECT_EQ(at(25).level, Throttle::kNone);
  EXPECT_EQ(at(25).clock, 1.0);
}

// Inlet 45 °C: T_ss = 95 °C > 85. Holding 85 °C allows 40 × 14 = 560 W → clock ∛(490/630).
TEST_F(ThrottleTest, SoftwareSlowdownHoldsMaxOperating) {
  const ThrottleState s = at(45);
  EXPECT_EQ(s.level, Throttle::kSoftware);
  EXPECT_NEAR(s.clock, 0.919641, 1e-6);
}

// Inlet 73 °C: 85 °C would need 168 W (clock 0.54 < 0.6 floor); at 0.6 the GPU draws 206.08 W
// and settles at 73 + 14.72 = 87.72 °C, under the 89 °C HW threshold.
TEST_F(ThrottleTest, SoftwareSlowdownStopsAtTheClockFloor) {
  const ThrottleState s = at(73);
  EXPECT_EQ(s.level, Throttle::kSoftware);
  EXPECT_EQ(s.clock, 0.6);
}

// Inlet 80 °C: at the floor 80 + 14.72 = 94.7 °C ≥ 89 → HW slowdown, clock halved (FACTS §3.2).
TEST_F(ThrottleTest, HardwareSlowdownHalvesTheClock) {
  const ThrottleState s = at(80);
  EXPECT_EQ(s.level, Throttle::kHardware);
  EXPECT_EQ(s.clock, 0.5);
}

// H100 PCIe throttles at 87 °C (FACTS §3.2): at 45 °C inlet, full activity, its T_ss is
// 45 + 50 = 95 °C; holding 87 °C allows 42 × 7 = 294 W of its 350 → clock ∛((294 − 35)/315).
TEST(Thermal, PerTypeThresholds) {
  GpuType pcie;
  pcie.name = "H100-PCIe";
  pcie.tdp_w = 350;
  const ThermalParams p;
  EXPECT_EQ(thresholds_for(pcie, p).max_operating_c, 87);
  EXPECT_EQ(thresholds_for(h100(), p).max_operating_c, 85);  // no row: the A100 default
  GpuType sxm = h100();
  sxm.name = "H100-SXM";
  EXPECT_EQ(thresholds_for(sxm, p).max_operating_c, 87);  // the PCIe part's figure (assumption)
  EXPECT_EQ(thresholds_for(sxm, p).hw_slowdown_c, 89);
  const ThrottleState s = throttle_state(pcie, 1.0, 45, rc_for(pcie, CoolingKind::kAir, p), PowerParams{}, p);
  EXPECT_EQ(s.level, Throttle::kSoftware);
  EXPECT_NEAR(s.clock, std::cbrt(259.0 / 315), 1e-9);
}

// H100 air at 45 °C inlet from a 45 °C start: T_ss 95 °C, onset at 85 °C after
// 150 · ln(50/10) = 241.415687 s, then software slowdown at ∛(490/630).
TEST(Thermal, OutlookGivesOnsetAndSettledState) {
  const ThermalParams p;
  const Rc rc = rc_for(h100(), CoolingKind::kAir, p);
  const ThermalOutlook hot = thermal_outlook(h100(), 1.0, 45, 45, rc, PowerParams{}, p);
  EXPECT_NEAR(hot.steady_c, 95, 1e-9);
  EXPECT_NEAR(hot.throttle_in.to_seconds(), 241.415687, 1e-6);
  EXPECT_EQ(hot.after.level, Throttle::kSoftware);
  EXPECT_NEAR(hot.after.clock, 0.919641, 1e-6);
  const ThermalOutlook cool = thermal_outlook(h100(), 1.0, 25, 25, rc, PowerParams{}, p);
  EXPECT_TRUE(cool.throttle_in.is_infinite());
  EXPECT_EQ(cool.after.level, Throttle::kNone);
}

TEST(Thermal, FacilityEnergyUsesPue) {
  EXPECT_NEAR(facility_kwh(100, default_pue(CoolingKind::kDirectLiquid)), 115, 1e-9);
  EXPECT_NEAR(facility_kwh(100, default_pue(CoolingKind::kAir)), 150, 1e-9);
  EXPECT_NEAR(default_pue(CoolingKind::kImmersion), 1.05, 1e-12);
}

}  // namespace
}  // namespace boreas::models
