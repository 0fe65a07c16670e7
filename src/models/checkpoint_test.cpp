#include "models/checkpoint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace boreas::models {
namespace {

constexpr double kLlamaMtbfS = 3.1 * 3600;  // FACTS §4.1 D

// BLOOM-176B (FACTS §4.2): 176e9 × 14 B = 2.464 TB at 57 GB/s = 43.23 s (measured: 2.3 TB in 40 s).
TEST(Checkpoint, BloomCostByHand) {
  const CheckpointCost c = checkpoint_cost(176e9, CheckpointParams{});
  EXPECT_NEAR(c.write_s, 43.2281, 1e-4);
  EXPECT_NEAR(c.restore_s, 60 + 43.2281, 1e-4);
}

// FACTS §4.3 worked example: M = 3.1 h, δ = 60 s → ≈ 19 min; δ = 300 s → ≈ 43 min.
TEST(Checkpoint, YoungMatchesFactsWorkedExample) {
  EXPECT_NEAR(young_interval_s(60, kLlamaMtbfS), 1157.24, 0.01);
  EXPECT_NEAR(young_interval_s(300, kLlamaMtbfS), 2587.66, 0.01);
  EXPECT_NEAR(daly_interval_s(300, kLlamaMtbfS), 2287.66, 0.01);
  EXPECT_EQ(daly_interval_s(100, 10), 100);  // never shorter than the write itself
}

// FACTS §4.3 (R9): MTBI 6000 s + MTTR 600 s, checkpoint 10 s, step 15 s → ≈ 24 steps.
TEST(Checkpoint, YoungInStepsMatchesR9) {
  EXPECT_NEAR(young_interval_s(10, 6600) / 15, 24.22, 0.01);
}

// δ/τ + τ/2M + R/M = 300/2587.66 + 2587.66/22320 + 600/11160 = 0.115935 + 0.115935 + 0.053763.
TEST(Checkpoint, WasteFractionByHand) {
  EXPECT_NEAR(waste_fraction(2587.66, 300, 600, kLlamaMtbfS), 0.285633, 1e-5);
}

// A segment of τ + δ = M·ln 2 fails with probability ½: (e^{ln 2} − 1)(M + 0) = M per τ of work.
TEST(Checkpoint, ExpectedTimeByHand) {
  const double write = 1000 * std::log(2.0) - 600;
  EXPECT_NEAR(expected_time_per_work(600, write, 0, 1000), 1000.0 / 600, 1e-9);
}

TEST(Checkpoint, WithoutFailuresTheRunIsWorkPlusCheckpoints) {
  Rng rng(5);
  EXPECT_NEAR(simulate_runtime_s(1000, 100, 10, 50, 1e30, rng), 1000 + 10 * 10, 1e-6);
}

// Issue 5 "must show": with M = 3.1 h, δ = 300 s and R = 600 s, sweeping 0.25×–4× Young over 20,000 h
// of work (≈ 6,450 failures), the simulated waste is lowest at Young or Daly (grid points within
// 1.5% of the minimum) and the analytical optimum lies between Daly and Young.
TEST(Checkpoint, SweepHasItsMinimumAtYoungOrDaly) {
  const double young = young_interval_s(300, kLlamaMtbfS);
  const double daly = daly_interval_s(300, kLlamaMtbfS);
  std::vector<double> grid;
  for (double f : {0.25, 0.5, 0.75, 1.25, 1.5, 2.0, 3.0, 4.0}) {
    grid.push_back(f * young);
  }
  grid.push_back(young);
  grid.push_back(daly);
  const auto points = sweep_intervals(grid, 20000 * 3600.0, 300, 600, kLlamaMtbfS, 2026);
  const auto by_sim = [](const SweepPoint& a, const SweepPoint& b) {
    return a.simulated_waste < b.simulated_waste;
  };
  const double best_sim = std::min_element(points.begin(), points.end(), by_sim)->simulated_waste;
  const SweepPoint& at_young = points[grid.size() - 2];
  const SweepPoint& at_daly = points[grid.size() - 1];
  EXPECT_LE(at_young.simulated_waste, best_sim * 1.015);
  EXPECT_LE(at_daly.simulated_waste, best_sim * 1.015);
  for (const SweepPoint& p : points) {
    EXPECT_NEAR(p.simulated_waste, p.expected_waste, 0.03 * p.expected_waste) << p.interval_s;
  }
  // The analytical curve: its minimum (≈ 2392 s) lies between Daly and Young.
  const double below = expected_time_per_work(daly * 0.98, 300, 600, kLlamaMtbfS);
  const double above = expected_time_per_work(young * 1.02, 300, 600, kLlamaMtbfS);
  const double mid = expected_time_per_work(2392, 300, 600, kLlamaMtbfS);
  EXPECT_LT(mid, below);
  EXPECT_LT(mid, above);
}

}  // namespace
}  // namespace boreas::models
