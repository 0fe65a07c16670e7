// Properties of the rack refresh's in-line cases (sim/thermal_reach.h), on random temperatures,
// limits, inlets, powers and RC values around the boundaries (below, at and above the limit and the
// onset; steady states just under, at and over the limit): models::time_to_reach (its early returns
// in line) returns what the plain formula does, sim::never_reaches holds exactly where it returns
// infinite below the limit, and a GPU sim::quiet_in_refresh skips is one the refresh's full
// second pass would leave alone (no throttle test due, full clock, no finite or zero reach time),
// and a rack sim::QuietRack finds all quiet is one whose every GPU quiet_in_refresh skips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

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

// One GPU of a random rack, and its node's limit and RC.
struct RackGpu {
  double act, clock, temp, power, max_c;
  models::Rc rc;
};

// A random rack of 1-8 nodes of 0-8 GPUs around QuietRack's boundaries: nodes without a thermal
// model (R = 0), idle and busy GPUs, clocks below 1 and a cap below 1 now and then, temperatures on
// or a hair around the onset, NaN now and then; the inlet is picked last so that the largest
// steady state lands on the lowest limit or a hair either side of it.
struct RandomRack {
  std::vector<RackGpu> gpus;
  double cap = 1, inlet = 0;
};

RandomRack random_rack(std::mt19937_64& rng, double slack) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto hair = [&] { return 1 + (unit(rng) - 0.5) * 1e-12; };
  RandomRack rack;
  rack.cap = unit(rng) < 0.05 ? 0.7 + 0.3 * unit(rng) : 1.0;
  const int nodes = 1 + static_cast<int>(unit(rng) * 8);
  for (int n = 0; n < nodes; ++n) {
    const double max_c = unit(rng) < 0.5 ? 85.0 : 70 + 30 * unit(rng);
    const models::Rc rc{unit(rng) < 0.1 ? 0.0 : 0.05 + 0.1 * unit(rng), 50 + 500 * unit(rng)};
    const int count = static_cast<int>(unit(rng) * 9);
    for (int i = 0; i < count; ++i) {
      RackGpu g{unit(rng) < 0.4 ? 0.0 : unit(rng), 1.0, 0, 60 + 240 * unit(rng), max_c, rc};
      g.clock = unit(rng) < 0.01 ? 0.5 + 0.5 * unit(rng) : 1.0;
      const double onset = max_c - slack;
      const double pick = unit(rng);
      g.temp = pick < 0.003 ? onset : pick < 0.006 ? onset * hair() : 30 + (onset - 30) * unit(rng);
      if (unit(rng) < 0.001) {
        (unit(rng) < 0.5 ? g.temp : g.power) = std::numeric_limits<double>::quiet_NaN();
      }
      rack.gpus.push_back(g);
    }
  }
  double headroom = std::numeric_limits<double>::infinity();  // the inlet that puts the hottest on its limit
  for (const RackGpu& g : rack.gpus) {
    if (g.rc.r_c_per_w > 0 && g.act > 0) {
      headroom = std::min(headroom, g.max_c - g.power * g.rc.r_c_per_w);
    }
  }
  rack.inlet = std::isfinite(headroom) ? headroom * (unit(rng) < 0.5 ? hair() : 1 - 0.2 * unit(rng)) : 25.0;
  return rack;
}

TEST(QuietRackProperty, AllQuietRacksAreOnesEveryGpuOfWhichIsQuiet) {
  std::mt19937_64 rng(41);
  constexpr double kSlack = 0.01;
  uint64_t quiet_racks = 0, loud_racks = 0, busy_in_quiet = 0;
  for (int i = 0; i < 100000; ++i) {
    const RandomRack rack = random_rack(rng, kSlack);
    // Fed as Physics::rack_power_w feeds it: node by node, in order.
    sim::QuietRack quiet;
    double sum_w = 0;
    size_t first = 0;  // the node's first GPU
    for (size_t g = 0; g < rack.gpus.size(); ++g) {
      sum_w += rack.gpus[g].power;
      const bool node_ends = g + 1 == rack.gpus.size() || rack.gpus[g + 1].max_c != rack.gpus[g].max_c ||
                             rack.gpus[g + 1].rc.r_c_per_w != rack.gpus[g].rc.r_c_per_w;
      if (!node_ends) {
        continue;
      }
      bool full_clock = true;
      double max_w = -std::numeric_limits<double>::infinity();
      std::vector<double> temps;
      for (size_t k = first; k <= g; ++k) {
        full_clock = full_clock && rack.gpus[k].clock == 1.0 && rack.cap == 1.0;
        max_w = std::max(max_w, rack.gpus[k].power);
        temps.push_back(rack.gpus[k].temp);
      }
      const RackGpu& node = rack.gpus[g];
      quiet.add_node(full_clock, sim::below_onset(temps, node.max_c - kSlack), max_w, node.max_c, node.rc);
      first = g + 1;
    }
    if (!quiet.all_quiet(rack.inlet, sum_w)) {
      ++loud_racks;
      continue;
    }
    ++quiet_racks;
    for (const RackGpu& g : rack.gpus) {
      ASSERT_TRUE(sim::quiet_in_refresh(g.act, g.clock, g.temp, g.max_c - kSlack, g.max_c, rack.inlet, g.power, g.rc))
          << "rack " << i << ": act " << g.act << " clock " << g.clock << " temp " << g.temp << " max " << g.max_c
          << " inlet " << rack.inlet << " power " << g.power << " r " << g.rc.r_c_per_w;
      busy_in_quiet += g.act > 0 && g.rc.r_c_per_w > 0 ? 1 : 0;
    }
  }
  EXPECT_GT(quiet_racks, 10000u);  // both sides were exercised
  EXPECT_GT(loud_racks, 10000u);
  EXPECT_GT(busy_in_quiet, 100000u);
}

}  // namespace
}  // namespace boreas
