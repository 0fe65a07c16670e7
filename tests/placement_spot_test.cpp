// Spot preference around pack on three 4-GPU nodes: node 0 in an on-demand zone, nodes 1 and 2 in
// a spot zone. Job 0 holds 3 GPUs of node 1, so free: node 0 4, node 1 1, node 2 4.
#include <gtest/gtest.h>

#include "placement_fixture.h"
#include "policy/placement_spot.h"

namespace boreas {
namespace {

Cluster spot_cluster(bool with_spot) {
  Cluster c;
  c.catalog.add(testing::gpu_type("G", 100, 400, 40));
  c.zones.push_back(Zone{.name = "on-demand"});
  c.zones.push_back(Zone{.name = "spot", .spot = with_spot});
  for (uint32_t n = 0; n < 3; ++n) {
    c.racks.push_back(Rack{.name = "rack" + std::to_string(n), .zone = ZoneId(n == 0 ? 0 : 1), .leaf = n});
    c.nodes.push_back(testing::four_gpu_node(n, n, 0));
  }
  return c;
}

testing::JobListBuilder jobs() {
  testing::JobListBuilder b;
  // 0: holder; 1: preemptible 1 GPU; 2: not preemptible, 1 GPU; 3: not preemptible, 6 GPUs;
  // 4: preemptible, 8 GPUs.
  b.add(0, 3, 100).add(0, 1, 10).add(0, 1, 10).add(0, 6, 10).add(0, 8, 10);
  b.jobs()[2].preemptible = false;
  b.jobs()[3].preemptible = false;
  return b;
}

TEST(SpotPreference, PreemptibleJobsGoToSpotOthersToOnDemand) {
  testing::PlacementFixture f(spot_cluster(true), jobs());
  ASSERT_TRUE(f.hold(0, 4, 3));
  auto spot = policy::with_spot_preference(policy::make_pack_placement());
  EXPECT_EQ(spot->name(), "pack");
  // pack alone would put both 1-GPU jobs on node 1 (best fit: 1 free).
  EXPECT_EQ(f.nodes_of(f.place(*spot, 1)), (std::set<uint32_t>{1}));
  EXPECT_EQ(f.nodes_of(f.place(*spot, 2)), (std::set<uint32_t>{0}));
  // 6 GPUs do not fit the on-demand side (4): it falls back to the whole cluster.
  EXPECT_EQ(f.place(*spot, 3)->size(), 6u);
  // 8 GPUs do not fit the spot side (5 free): the whole cluster again.
  EXPECT_EQ(f.place(*spot, 4)->size(), 8u);
}

TEST(SpotPreference, WithoutSpotZonesItIsTheInnerPlacement) {
  testing::PlacementFixture f(spot_cluster(false), jobs());
  ASSERT_TRUE(f.hold(0, 4, 3));
  auto spot = policy::with_spot_preference(policy::make_pack_placement());
  auto pack = policy::make_pack_placement();
  for (uint32_t j = 1; j < 5; ++j) {
    EXPECT_EQ(f.place(*spot, j), f.place(*pack, j)) << "job " << j;
  }
  EXPECT_EQ(f.nodes_of(f.place(*spot, 2)), (std::set<uint32_t>{1}));  // best fit, zone ignored
}

}  // namespace
}  // namespace boreas
