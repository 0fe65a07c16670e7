// Properties of the rack refresh's in-line cases (sim/thermal_reach.h), on random temperatures,
// limits, inlets, powers and RC values around the boundaries (below, at and above the limit and the
// onset; steady states just under, at and over the limit): models::time_to_reach (its early returns
// in line) returns what the plain formula does, sim::never_reaches holds exactly where it returns
// infinite below the limit, and a GPU sim::quiet_in_refresh skips is one the refresh's full
// second pass would leave alone (no throttle test due, full clock, no finite or zero reach time).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "models/thermal.h"
#include "sim/thermal_reach.h"

namespace boreas {
namespace {

// The time to reach a threshold as docs/models.md writes it, every case spelled out.
Duration plain_time_to_reach(double t0, double threshold, double inlet, double power, const models::Rc& rc) {
  const double steady = inlet + power * rc.r_c_per_w;
  if (t0 >= threshold) {
    return Duration::zero();
  }
  if (steady <= threshold) {
    return Duration::infinite();
  }
  return Duration::from_seconds(rc.r_c_per_w * rc.c_j_per_c * std::log((steady - t0) / (steady - threshold)));
}

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
    const Duration plain = plain_time_to_reach(t0, threshold, inlet, power, rc);
    ASSERT_EQ(models::time_to_reach(t0, threshold, inlet, power, rc), plain)
        << "t0 " << t0 << " threshold " << threshold << " inlet " << inlet << " power " << power;
    const bool never = sim::never_reaches(t0, threshold, inlet, power, rc);
    ASSERT_EQ(never, t0 < threshold && plain == Duration::infinite())
        << "t0 " << t0 << " threshold " << threshold << " inlet " << inlet << " power " << power;
    in_line += never ? 1 : 0;
  }
  EXPECT_GT(in_line, 10000u);  // the in-line case was exercised
}

TEST(ThermalReachProperty, QuietGpusAreOnesTheFullPassLeavesAlone) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  constexpr double kSlack = 0.01;
  uint64_t quiet = 0, busy_quiet = 0, loud = 0;
  for (int i = 0; i < 200000; ++i) {
    const double max_c = 70 + 30 * unit(rng);
    const double onset = max_c - kSlack;
    const double inlet = 15 + 20 * unit(rng);
    const models::Rc rc{i % 7 == 0 ? 0.0 : 0.01 + 0.3 * unit(rng), 50 + 500 * unit(rng)};
    const double act = i % 3 == 0 ? 0.0 : unit(rng);
    const double clock = i % 11 == 0 ? 0.5 + 0.5 * unit(rng) : 1.0;
    double power = 300 * unit(rng);
    if (i % 4 == 0 && rc.r_c_per_w > 0) {  // a steady state on the limit, or a hair either side
      power = (max_c - inlet) / rc.r_c_per_w * (1 + (unit(rng) - 0.5) * 1e-12);
    }
    double temp = inlet + (max_c + 5 - inlet) * unit(rng);
    temp = i % 5 == 0 ? onset : i % 5 == 1 ? max_c : temp;  // on the onset, on the limit
    const bool busy = act > 0 && rc.r_c_per_w > 0;
    // The full pass (Physics::refresh_rack): a throttle test, a clock change, a reach time.
    const bool throttle_test = busy && (clock < 1.0 || temp >= onset);
    const bool reach_test = busy && clock == 1.0;
    const bool acts = throttle_test || clock != 1.0 ||
                      (reach_test && models::time_to_reach(temp, max_c, inlet, power, rc) != Duration::infinite());
    if (sim::quiet_in_refresh(act, clock, temp, onset, max_c, inlet, power, rc)) {
      ASSERT_FALSE(acts) << "act " << act << " clock " << clock << " temp " << temp << " max " << max_c
                         << " inlet " << inlet << " power " << power << " r " << rc.r_c_per_w;
      ++quiet;
      busy_quiet += busy ? 1 : 0;
    } else {
      loud += 1;
    }
  }
  EXPECT_GT(busy_quiet, 10000u);  // both sides were exercised
  EXPECT_GT(quiet - busy_quiet, 10000u);
  EXPECT_GT(loud, 10000u);
}

}  // namespace
}  // namespace boreas
