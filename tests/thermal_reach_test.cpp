// Property: sim::reach_time (the rack refresh's in-line "never reaches its limit" case) returns
// what models::time_to_reach returns, on random temperatures, limits, inlets, powers and RC values
// around the boundaries (below, at and above the limit; steady states just under, at and over it).
#include <gtest/gtest.h>

#include <random>

#include "models/thermal.h"
#include "sim/thermal_reach.h"

namespace boreas {
namespace {

TEST(ThermalReachProperty, InLineCaseEqualsTimeToReach) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  uint64_t in_line = 0;
  for (int i = 0; i < 200000; ++i) {
    const double threshold = 70 + 30 * unit(rng);
    const double inlet = 15 + 20 * unit(rng);
    models::Rc rc{0.01 + 0.3 * unit(rng), 50 + 500 * unit(rng)};
    double power = 300 * unit(rng);
    if (i % 3 == 0) {  // a steady state on the limit, or a hair either side of it
      power = (threshold - inlet) / rc.r_c_per_w * (1 + (unit(rng) - 0.5) * 1e-12);
    }
    double t0 = inlet + (threshold + 5 - inlet) * unit(rng);
    if (i % 5 == 0) {
      t0 = threshold;  // on the limit: zero
    }
    const Duration plain = models::time_to_reach(t0, threshold, inlet, power, rc);
    ASSERT_EQ(sim::reach_time(t0, threshold, inlet, power, rc), plain)
        << "t0 " << t0 << " threshold " << threshold << " inlet " << inlet << " power " << power;
    in_line += sim::never_reaches(t0, threshold, inlet, power, rc) ? 1 : 0;
  }
  EXPECT_GT(in_line, 10000u);  // the in-line case was exercised
}

}  // namespace
}  // namespace boreas
