// hetero: the allocation LP on hand-solvable cases, and the placement it drives on a cluster of
// one FAST node (4 GPUs, 400 TFLOPS) and one SLOW node (4 GPUs, 100 TFLOPS), same memory bandwidth.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "placement_fixture.h"
#include "policy/placement_hetero.h"
#include "policy/placement_hetero_lp.h"

namespace boreas {
namespace {

// Capacities FAST 4, SLOW 8. A runs 4× faster on FAST; B the same on both. Equal-share rates
// (capacity-weighted): A (4·4 + 1·8) / 12 = 2, B 2; normalised A: FAST 2, SLOW 0.5; B: 1, 1.
// B can reach at most 1, so the max-min optimum is z = 1 with B anywhere; the efficiency
// tie-break then gives A all of FAST (normalised 2) and B all of SLOW.
TEST(HeteroLp, TypeIndifferentJobsLeaveTheFastTypeToTheOthers) {
  const std::vector<policy::LpGroup> groups{{{4, 1}, 4}, {{2, 2}, 4}};
  auto x = policy::max_min_allocation(groups, {4, 8});
  ASSERT_TRUE(x.is_ok());
  EXPECT_NEAR((*x)[0][0], 1, 1e-9);
  EXPECT_NEAR((*x)[0][1], 0, 1e-9);
  EXPECT_NEAR((*x)[1][0], 0, 1e-9);
  EXPECT_NEAR((*x)[1][1], 1, 1e-9);
}

// Capacities 4 and 4, A (4, 1) and B (2, 1), 4 GPUs each: normalised A (1.6, 0.4), B (1.33, 0.67).
// With a = A's FAST share, the minimum is max over a of min(0.4 + 1.2a, 1.33 − 0.67a): a = 0.5,
// z = 1: fairness makes both split evenly.
TEST(HeteroLp, MaxMinSplitsWhenBothPreferTheFastType) {
  const std::vector<policy::LpGroup> groups{{{4, 1}, 4}, {{2, 1}, 4}};
  auto x = policy::max_min_allocation(groups, {4, 4});
  ASSERT_TRUE(x.is_ok());
  EXPECT_NEAR((*x)[0][0], 0.5, 1e-6);
  EXPECT_NEAR((*x)[1][1], 0.5, 1e-6);
  const double a = 1.6 * (*x)[0][0] + 0.4 * (*x)[0][1];
  const double b = (4.0 / 3) * (*x)[1][0] + (2.0 / 3) * (*x)[1][1];
  EXPECT_NEAR(std::min(a, b), 1.0, 1e-6);
}

// The placement skips the LP for a group with one usable type (allowed, with capacity) while every
// group has one: that type is then favoured (its share > 0 and the largest of the group's). Over
// random LPs — 1–6 groups, 1–4 types, some without capacity, GPUs that over- and under-fill
// them — every such group gets a positive share of its type and 0 elsewhere.
TEST(HeteroLpProperty, OneUsableTypeGetsAPositiveShareWhileEveryGroupHasOne) {
  std::mt19937 rng(7);
  uint32_t checked = 0;
  for (int lp = 0; lp < 300; ++lp) {
    const size_t types = 1 + rng() % 4;
    std::vector<double> capacity(types);
    for (double& c : capacity) {
      c = rng() % 3 == 0 ? 0 : static_cast<double>(8 * (1 + rng() % 16));
    }
    capacity[rng() % types] = 8;  // at least one type has GPUs
    std::vector<policy::LpGroup> groups(1 + rng() % 6);
    for (policy::LpGroup& g : groups) {
      g.rate.assign(types, 0);
      for (size_t t = 0; t < types; ++t) {
        g.rate[t] = rng() % 2 == 0 ? 0 : 0.5 + static_cast<double>(rng() % 100) / 10;
      }
      std::vector<size_t> with_capacity;
      for (size_t t = 0; t < types; ++t) {
        if (capacity[t] > 0) {
          with_capacity.push_back(t);
        }
      }
      g.rate[with_capacity[rng() % with_capacity.size()]] = 1 + static_cast<double>(rng() % 50) / 10;
      g.gpus = static_cast<double>(rng() % 4 == 0 ? 0 : 1 + rng() % 400);
    }
    auto x = policy::max_min_allocation(groups, capacity);
    ASSERT_TRUE(x.is_ok()) << "lp " << lp;
    for (size_t g = 0; g < groups.size(); ++g) {
      std::vector<size_t> usable;
      for (size_t t = 0; t < types; ++t) {
        if (groups[g].rate[t] > 0 && capacity[t] > 0) {
          usable.push_back(t);
        }
      }
      if (usable.size() != 1) {
        continue;
      }
      const std::vector<double>& share = (*x)[g];
      EXPECT_GT(share[usable[0]], 0) << "lp " << lp << " group " << g;
      EXPECT_EQ(*std::max_element(share.begin(), share.end()), share[usable[0]]) << "lp " << lp << " group " << g;
      ++checked;
    }
  }
  EXPECT_GT(checked, 200u);  // the random LPs held many one-type groups
}

// Why the placement still solves the LP while some group has no usable type: that group holds the
// least normalised throughput at 0, and only the tie-break (10⁻³ × the mean) is left to maximise,
// which spends the capacity where it buys most share per GPU. One type with 8 GPUs; A asks for
// 1,000 of it, B for 8, C only for a type with none. With C: B gets all 8 GPUs (x = 1) and A
// nothing — A's one type is not favoured. Without C: z = min(xA, xB) > 0 gives A a share.
TEST(HeteroLp, AGroupWithNoUsableTypeCanLeaveAOneTypeGroupWithoutAShare) {
  const policy::LpGroup a{{1, 0}, 1000}, b{{1, 0}, 8}, c{{0, 1}, 4};
  auto with_c = policy::max_min_allocation({a, b, c}, {8, 0});
  ASSERT_TRUE(with_c.is_ok());
  EXPECT_NEAR((*with_c)[0][0], 0, 1e-9);
  EXPECT_NEAR((*with_c)[1][0], 1, 1e-9);
  auto without_c = policy::max_min_allocation({a, b}, {8, 0});
  ASSERT_TRUE(without_c.is_ok());
  EXPECT_GT((*without_c)[0][0], 1e-3);
}

Cluster two_type_cluster() {
  Cluster c;
  c.catalog.add(testing::gpu_type("FAST", 400, 400));
  c.catalog.add(testing::gpu_type("SLOW", 100, 400));
  c.zones.push_back(Zone{.name = "z"});
  c.racks.push_back(Rack{.name = "r", .zone = ZoneId(0)});
  c.nodes.push_back(testing::four_gpu_node(0, 0, 0));
  c.nodes.push_back(testing::four_gpu_node(1, 0, 1));
  return c;
}

// Classes: "compute" (all compute-bound: 4× faster on FAST) and "memory" (memory-bound: equal).
policy::HeteroOptions two_class_options() {
  policy::HeteroOptions o;
  o.throughput.classes = {{"compute", 1.0}, {"memory", 0.0}};
  o.throughput.default_class = "memory";
  o.throughput.efficiencies.clear();
  return o;
}

// Pending: job 0 "compute" and job 1 "memory", 4 GPUs each. As in the first LP case (capacities
// 4 and 4 here): compute gets FAST, memory gets SLOW, although FAST is free for job 1 too.
TEST(HeteroPlacement, PlacesEachClassOnTheTypeTheLpFavours) {
  testing::JobListBuilder b;
  b.add(0, 4, 100).add(0, 4, 100);
  b.jobs()[0].job_class = b.symbols().intern("compute");
  b.jobs()[1].job_class = b.symbols().intern("memory");
  testing::PlacementFixture f(two_type_cluster(), std::move(b));
  auto hetero = policy::make_hetero_placement(two_class_options());
  EXPECT_EQ(f.nodes_of(f.place(*hetero, 1)), (std::set<uint32_t>{1}));  // memory-bound → SLOW
  EXPECT_EQ(f.nodes_of(f.place(*hetero, 0)), (std::set<uint32_t>{0}));  // compute-bound → FAST
  auto pack = policy::make_pack_placement();  // type-agnostic: the first type with a best fit
  EXPECT_EQ(f.nodes_of(f.place(*pack, 1)), (std::set<uint32_t>{0}));
}

// Three 4-GPU nodes of types SLOW (100 TFLOPS, first in the catalog), FAST (400) and MID (200). A
// 6-GPU compute-bound gang fits no single type; it runs at its slowest GPU's pace, so it spans the
// fastest types: FAST's 4 and 2 of MID (pace 200), never SLOW (pace 100).
TEST(HeteroPlacement, AGangSpanningTypesTakesTheFastestFirst) {
  Cluster c;
  c.catalog.add(testing::gpu_type("SLOW", 100, 400));
  c.catalog.add(testing::gpu_type("FAST", 400, 400));
  c.catalog.add(testing::gpu_type("MID", 200, 400));
  c.zones.push_back(Zone{.name = "z"});
  c.racks.push_back(Rack{.name = "r", .zone = ZoneId(0)});
  for (uint32_t i = 0; i < 3; ++i) {
    c.nodes.push_back(testing::four_gpu_node(i, 0, i));
  }
  testing::JobListBuilder b;
  b.add(0, 6, 100);
  b.jobs()[0].job_class = b.symbols().intern("compute");
  testing::PlacementFixture f(std::move(c), std::move(b));
  auto hetero = policy::make_hetero_placement(two_class_options());
  const auto gpus = f.place(*hetero, 0);
  ASSERT_TRUE(gpus.has_value());
  EXPECT_EQ(gpus->size(), 6u);
  EXPECT_EQ(f.nodes_of(gpus), (std::set<uint32_t>{1, 2}));
}

TEST(HeteroPlacement, OptionsAreValidated) {
  policy::HeteroOptions o;
  EXPECT_TRUE(policy::validate(o).is_ok());
  o.favoured_share = -1;
  EXPECT_FALSE(policy::validate(o).is_ok());
}

}  // namespace
}  // namespace boreas
