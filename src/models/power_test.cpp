#include "models/power.h"

#include <gtest/gtest.h>

#include <vector>

namespace boreas::models {
namespace {

GpuType gpu(double tdp, double idle = 0) {
  GpuType t;
  t.name = "G";
  t.tdp_w = tdp;
  t.idle_w = idle;
  return t;
}

TEST(Power, IdleFallsBackToATenthOfTdp) {
  EXPECT_DOUBLE_EQ(idle_w(gpu(700)), 70);
  EXPECT_DOUBLE_EQ(idle_w(gpu(400, 68)), 68);
}

// H100: 70 + 630 × 0.5 = 385 W; at clock 0.8: 70 + 630 × 0.5 × 0.512 = 231.28 W.
TEST(Power, ActivityAndClockByHand) {
  const PowerParams p;
  EXPECT_NEAR(gpu_power_w(gpu(700), 0.5, 1.0, p), 385, 1e-9);
  EXPECT_NEAR(gpu_power_w(gpu(700), 0.5, 0.8, p), 231.28, 1e-9);
  EXPECT_NEAR(gpu_power_w(gpu(700), 0.0, 1.0, p), 70, 1e-9);
}

// Cap 560 W at full activity: clock = ∛(490/630) = 0.919641.
TEST(Power, ClockForCapByHand) {
  const PowerParams p;
  const CappedClock c = clock_for_cap(gpu(700), 1.0, 560, p);
  EXPECT_NEAR(c.clock, 0.919641, 1e-6);
  EXPECT_TRUE(c.meets_cap);
  EXPECT_NEAR(gpu_power_w(gpu(700), 1.0, c.clock, p), 560, 1e-6);
  EXPECT_EQ(clock_for_cap(gpu(700), 1.0, 800, p).clock, 1.0);
}

// ∛(30/630) = 0.362 is below the 0.6 floor: the cap cannot be met.
TEST(Power, CapBelowFloorReportsMiss) {
  const CappedClock c = clock_for_cap(gpu(700), 1.0, 100, PowerParams{});
  EXPECT_EQ(c.clock, 0.6);
  EXPECT_FALSE(c.meets_cap);
}

// FACTS §3.1 (T8): a V100 capped 250 → 175 W. With idle 25 W: clock = ∛(150/225) = 0.8736.
TEST(Power, V100CapOf175WattsCostsAbout13PercentClock) {
  EXPECT_NEAR(clock_for_cap(gpu(250), 1.0, 175, PowerParams{}).clock, 0.873580, 1e-6);
}

// 8 × H100 at full activity + 1900 W static under a 6 kW rack cap: fixed 1900 + 560 W,
// dynamic 5040 W → clock = ∛(3540/5040) = 0.888910.
TEST(Power, GroupCapSharesOneClock) {
  const PowerParams p;
  const GpuType h100 = gpu(700);
  const std::vector<GpuLoad> loads(8, GpuLoad{&h100, 1.0});
  const CappedClock c = group_clock_for_cap(loads, 1900, 6000, p);
  EXPECT_NEAR(c.clock, 0.888910, 1e-6);
  EXPECT_TRUE(c.meets_cap);
  EXPECT_EQ(group_clock_for_cap(loads, 1900, 8000, p).clock, 1.0);
  EXPECT_FALSE(group_clock_for_cap(loads, 1900, 2500, p).meets_cap);
}

TEST(Power, GangRunsAtItsSlowestGpu) {
  const std::vector<double> clocks = {1.0, 0.9, 0.6, 0.95};
  EXPECT_EQ(gang_clock(clocks), 0.6);
  EXPECT_EQ(gang_clock({}), 1.0);
}

TEST(Power, NodeTotalsAndEnergy) {
  const PowerParams p;
  const std::vector<double> gpus(8, 385.0);
  EXPECT_NEAR(node_power_w(gpus, true, p), 8 * 385.0 + 500 + 8 * 200, 1e-9);
  // 8× H100 at TDP: 5.6 kW + 2.1 kW = 7.7 kW, 76% of the 10.2 kW HGX rating (FACTS §3.1 T7).
  EXPECT_NEAR(node_power_w(std::vector<double>(8, 700.0), true, p), 7700, 1e-9);
  EXPECT_NEAR(sum_w(gpus), 3080, 1e-9);
  EXPECT_NEAR(energy_kwh(1000, Duration::hours(1)), 1.0, 1e-12);
  EXPECT_NEAR(energy_kwh(250, Duration::minutes(30)), 0.125, 1e-12);
}

// Static draw by node class: a 4× L4 PCIe server draws 300 + 4 × 30 = 420 W besides its 288 W of
// GPUs, not the 1.3 kW of an NVLink baseboard node of 4 GPUs (500 + 4 × 200).
TEST(Power, StaticDrawDependsOnTheNodeClass) {
  const PowerParams p;
  EXPECT_NEAR(node_static_w(4, false, p), 420, 1e-9);
  EXPECT_NEAR(node_static_w(4, true, p), 1300, 1e-9);
  Node l4;
  l4.gpu_count = 4;
  EXPECT_NEAR(node_static_w(l4, p), 420, 1e-9);
  Node cpu_only;
  EXPECT_NEAR(node_static_w(cpu_only, p), 300, 1e-9);  // the host alone
}

}  // namespace
}  // namespace boreas::models
