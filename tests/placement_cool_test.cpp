// cool on three racks of one 4-GPU node each: rack 0 liquid-cooled, racks 1–2 air-cooled with a
// 2.1 kW cooling limit. GPU: TDP 400 W, idle 40 W; a busy GPU (activity 0.8) draws
// 40 + 360 × 0.8 = 328 W, 288 W above idle. The nodes are NVLink baseboard nodes, whose static draw
// is 500 + 4 × 200 = 1300 W (models/param_table.h), so an
// idle rack draws 1300 + 4 × 40 = 1460 W and an air rack has room for (2100 − 1460) / 288 = 2.2,
// i.e. 2 busy GPUs; with one GPU busy, (2100 − 1748) / 288 = 1.2, i.e. 1 more.
#include <gtest/gtest.h>

#include "placement_fixture.h"
#include "policy/duration_estimate.h"
#include "policy/placement_cool.h"

namespace boreas {
namespace {

Cluster cooled_cluster(double liquid_cap_kw = 0) {
  Cluster c;
  c.catalog.add(testing::gpu_type("HOT", 100, 400, 40));
  c.zones.push_back(Zone{.name = "liquid", .cooling = CoolingKind::kDirectLiquid, .inlet_c = 35,
                         .pue = 1.15, .power_cap_kw = liquid_cap_kw});
  c.zones.push_back(Zone{.name = "air", .cooling = CoolingKind::kAir, .inlet_c = 24, .pue = 1.5});
  for (uint32_t r = 0; r < 3; ++r) {
    c.racks.push_back(Rack{.name = "rack" + std::to_string(r), .zone = ZoneId(r == 0 ? 0 : 1),
                           .cooling_limit_kw = 2.1, .leaf = r});
    c.nodes.push_back(testing::four_gpu_node(r, r, 0));
    c.nodes.back().nvlink = true;
  }
  return c;
}

policy::CoolOptions options() {
  policy::CoolOptions o;
  o.activity = 0.8;  // the figures above
  return o;
}

testing::JobListBuilder jobs() {
  testing::JobListBuilder b;
  // 0, 1: holders; 2: hot 2-GPU (2 h); 3: short 2-GPU (60 s); 4: short 3-GPU; 5: hot 8-GPU.
  b.add(0, 1, 100).add(0, 4, 100).add(0, 2, 7200).add(0, 2, 60).add(0, 3, 60).add(0, 8, 7200);
  return b;
}

TEST(CoolPlacement, LongJobsGoToTheLiquidZone) {
  testing::PlacementFixture f(cooled_cluster(), jobs());
  ASSERT_TRUE(f.hold(0, 4, 1));  // node 1 (air) has 3 free: the best fit by count
  auto cool = policy::make_cool_placement(options());
  EXPECT_EQ(f.nodes_of(f.place(*cool, 2)), (std::set<uint32_t>{0}));  // hot: liquid first
  auto pack = policy::make_pack_placement();
  EXPECT_EQ(f.nodes_of(f.place(*pack, 2)), (std::set<uint32_t>{1}));
}

TEST(CoolPlacement, KeepsAirRacksUnderTheirCoolingLimit) {
  testing::PlacementFixture f(cooled_cluster(), jobs());
  ASSERT_TRUE(f.hold(1, 0, 4));  // the liquid node is full
  ASSERT_TRUE(f.hold(0, 4, 1));  // rack 1 has room for 1 more busy GPU, rack 2 for 2
  auto cool = policy::make_cool_placement(options());
  auto pack = policy::make_pack_placement();
  EXPECT_EQ(f.nodes_of(f.place(*cool, 3)), (std::set<uint32_t>{2}));  // 2 GPUs: only rack 2 has room
  EXPECT_EQ(f.nodes_of(f.place(*pack, 3)), (std::set<uint32_t>{1}));  // pack: 3 free is the best fit
  // 3 GPUs fit under no air rack's limit: cool falls back to pack's best fit.
  EXPECT_EQ(f.nodes_of(f.place(*cool, 4)), (std::set<uint32_t>{1}));
}

// When no air rack has room under its limit, cool takes the node whose rack loses the least clock.
// At activity 1 a busy GPU draws 400 W (360 W above idle) and, air-cooled, settles 50 °C above its
// inlet; with the inlet rising 20 °C per kW above the 2.1 kW limit, a rack with b busy GPUs draws
// 1460 + 360 b W. b = 3: 0.44 kW over, inlet 24 + 8.8, GPUs at 82.8 °C ≤ 85 — no throttle; b = 4:
// 0.8 kW over, inlet 40, GPUs would reach 90 °C — all four throttle.
TEST(CoolPlacement, TipsNoRackIntoThrottlingWhenItCanAvoidIt) {
  testing::PlacementFixture f(cooled_cluster(), jobs());
  ASSERT_TRUE(f.hold(1, 0, 4));  // the liquid node is full
  ASSERT_TRUE(f.hold(2, 4, 2));  // rack 1: 2 busy (2 free)
  ASSERT_TRUE(f.hold(0, 8, 1));  // rack 2: 1 busy (3 free)
  policy::CoolOptions o = options();
  o.activity = 1.0;
  o.thermal.inlet_rise_c_per_kw = 20;
  auto cool = policy::make_cool_placement(o);
  auto pack = policy::make_pack_placement();
  // 2 GPUs: neither air rack stays under 2.1 kW (1460 + 4 × 360 and 1460 + 3 × 360 both exceed it).
  EXPECT_EQ(f.nodes_of(f.place(*pack, 3)), (std::set<uint32_t>{1}));  // best fit: rack 1 → 4 busy, throttles
  EXPECT_EQ(f.nodes_of(f.place(*cool, 3)), (std::set<uint32_t>{2}));  // rack 2 → 3 busy, no throttle
}

TEST(CoolPlacement, HonoursTheZonePowerCap) {
  testing::PlacementFixture f(cooled_cluster(1.46), jobs());  // the liquid zone's idle draw: no room
  auto cool = policy::make_cool_placement(options());
  const auto hot = f.place(*cool, 2);
  EXPECT_EQ(f.nodes_of(hot), (std::set<uint32_t>{1}));  // first air node with room for 2
}

TEST(CoolPlacement, SpreadsALargeGangWithinEachRacksRoom) {
  testing::PlacementFixture f(cooled_cluster(), jobs());
  auto cool = policy::make_cool_placement(options());
  const auto gpus = f.place(*cool, 5);  // 8 GPUs: 4 liquid + 2 + 2 under the air limits
  ASSERT_TRUE(gpus.has_value());
  std::vector<uint32_t> per_node(3, 0);
  for (GpuId g : *gpus) {
    ++per_node[f.state().node_of(g).value()];
  }
  EXPECT_EQ(per_node, (std::vector<uint32_t>{4, 2, 2}));
}

// Two air racks of two 4-GPU nodes each (nodes 0-1 in rack 0, 2-3 in rack 1), 4.1 kW cooling
// limit: an idle rack draws 2 × 1460 = 2920 W, so each has room for (4100 − 2920) / 288 = 4.1, i.e.
// 4 busy GPUs. An 8-GPU gang fits no rack's room; spread by room it would take 4 + 4 over both
// racks and cross the spine. It fits one rack's free GPUs, so cool keeps it in one: both racks
// lose the same clock, and the first wins.
TEST(CoolPlacement, KeepsAGangThatFitsARackInOneRack) {
  Cluster c;
  c.catalog.add(testing::gpu_type("HOT", 100, 400, 40));
  c.zones.push_back(Zone{.name = "air", .cooling = CoolingKind::kAir, .inlet_c = 24, .pue = 1.5});
  for (uint32_t r = 0; r < 2; ++r) {
    c.racks.push_back(Rack{.name = "rack" + std::to_string(r), .zone = ZoneId(0), .cooling_limit_kw = 4.1, .leaf = r});
    for (uint32_t i = 0; i < 2; ++i) {
      c.nodes.push_back(testing::four_gpu_node(2 * r + i, r, 0));
      c.nodes.back().nvlink = true;
    }
  }
  testing::PlacementFixture f(std::move(c), jobs());
  auto cool = policy::make_cool_placement(options());
  EXPECT_EQ(f.nodes_of(f.place(*cool, 5)), (std::set<uint32_t>{0, 1}));
}

// What cool knows of a job's run time: never the job's own duration. Completed 1-GPU jobs of queue
// a ran 100, 400 and 1600 s (geometric mean 400 s); a completed 2-GPU job of queue a ran 6400 s.
TEST(DurationEstimator, PredictsFromCompletedJobsOnly) {
  testing::JobListBuilder b;
  b.add(0, 1, 100, "a").add(0, 1, 400, "a").add(0, 1, 1600, "a").add(0, 2, 6400, "a");
  b.add(0, 1, 999999, "a").add(0, 4, 999999, "a").add(0, 1, 999999, "z").add(0, 1, 999999, "a");
  b.jobs()[7].time_limit = Duration::seconds(50);
  testing::PlacementFixture f(cooled_cluster(), std::move(b));
  policy::DurationEstimator est;
  const auto estimate = [&](uint32_t job) {
    return est.estimate(f.state().spec(JobId(job)), state::ClusterView(f.state(), Time::zero()));
  };
  EXPECT_TRUE(estimate(4).is_infinite());  // nothing completed yet: treated as long
  for (uint32_t j = 0; j < 4; ++j) {
    ASSERT_TRUE(f.hold(j, 0, j == 3 ? 2 : 1));
    ASSERT_TRUE(f.state().finish(JobId(j), Time::zero() + Duration::seconds(1)).is_ok());
  }
  EXPECT_NEAR(estimate(4).to_seconds(), 400, 1e-3);  // queue a, 1 GPU: 3 jobs
  // queue a, 4 GPUs: no history at that size, so queue a: (100·400·1600·6400)^(1/4) = 800 s
  EXPECT_NEAR(estimate(5).to_seconds(), 800, 1e-3);
  EXPECT_NEAR(estimate(6).to_seconds(), 800, 1e-3);  // queue z: no history, so all completed jobs
  EXPECT_EQ(estimate(7), Duration::seconds(50));     // a time limit is what the user promised
}

TEST(CoolPlacement, OptionsAreValidated) {
  policy::CoolOptions o;
  EXPECT_TRUE(policy::validate(o).is_ok());
  o.activity = 2;
  EXPECT_FALSE(policy::validate(o).is_ok());
}

}  // namespace
}  // namespace boreas
