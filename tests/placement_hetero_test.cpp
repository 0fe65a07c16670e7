// hetero: the allocation LP on hand-solvable cases, and the placement it drives on a cluster of
// one FAST node (4 GPUs, 400 TFLOPS) and one SLOW node (4 GPUs, 100 TFLOPS), same memory bandwidth.
#include <gtest/gtest.h>

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
