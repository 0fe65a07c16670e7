// The training twin's `frag` placement on hand-checked cases: the job-size mix it learns online,
// the node it picks against best fit (pack), and the fallback for gangs larger than a node.
#include <gtest/gtest.h>

#include "placement_fixture.h"
#include "policy/placement_frag.h"
#include "policy/registry.h"

namespace boreas {
namespace {

TEST(SizeMix, FragmentIsIdleGpuNoClassCanStartOn) {
  policy::SizeMix mix;
  EXPECT_EQ(mix.frag(3, 4), 0.0);  // nothing seen yet: no fragment
  for (uint32_t gpus : {1u, 2u, 2u, 8u, 0u}) {
    mix.observe(gpus);  // the CPU-only job (0 GPUs) is not a class
  }
  EXPECT_EQ(mix.jobs(), 4);
  // A 4-GPU node with 3 free: sizes 1 and 2 start there; 8 needs the whole node: 3 × 1/4.
  EXPECT_DOUBLE_EQ(mix.frag(3, 4), 0.75);
  // 1 free: only size 1 starts: 1 × 3/4.
  EXPECT_DOUBLE_EQ(mix.frag(1, 4), 0.75);
  EXPECT_DOUBLE_EQ(mix.frag(4, 4), 0.0);  // a free node serves every class
  EXPECT_DOUBLE_EQ(mix.frag(0, 4), 0.0);  // nothing idle
}

Cluster three_nodes() {
  Cluster c;
  c.catalog.add(testing::gpu_type("G", 100, 400, 40));
  c.zones.push_back(Zone{.name = "z"});
  c.racks.push_back(Rack{.name = "rack0", .zone = ZoneId(0), .leaf = 0});
  for (uint32_t n = 0; n < 3; ++n) {
    c.nodes.push_back(testing::four_gpu_node(n, 0, 0));
  }
  return c;
}

TEST(FragPlacement, KeepsRoomForThePopularSizeWhereBestFitWouldNot) {
  testing::JobListBuilder b;
  // 0, 1: holders; 2-4: 2-GPU jobs; 5: a 1-GPU job; 6: a 6-GPU gang.
  b.add(0, 2, 100).add(0, 1, 100).add(0, 2, 10).add(0, 2, 10).add(0, 2, 10).add(0, 1, 10).add(0, 6, 10);
  testing::PlacementFixture f(three_nodes(), std::move(b));
  ASSERT_TRUE(f.hold(0, 0, 2));  // node 0: 2 free
  ASSERT_TRUE(f.hold(1, 4, 1));  // node 1: 3 free; node 2: 4 free
  auto frag = policy::make_frag_placement();
  auto pack = policy::make_pack_placement();
  for (uint32_t j = 2; j <= 4; ++j) {
    // Sizes seen: 2 only. Before, every node's free GPUs serve size 2: F = 0. After: node 0 has
    // none free (F 0), node 1 one (F 1, gain −1), node 2 two (F 0). Nodes 0 and 2 tie at gain 0;
    // node 0 is the tighter. (The placement does not claim the GPUs: node 0 stays at 2 free.)
    EXPECT_EQ(f.nodes_of(f.place(*frag, j)), (std::set<uint32_t>{0})) << "job " << j;
  }
  // Mix now 2-GPU: 3/4, 1-GPU: 1/4 (job 5 counts itself). The 1-GPU job: on node 0 (2 -> 1 free)
  // F goes 0 -> 1 × 3/4, gain −0.75; on node 1 (3 -> 2) and node 2 (4 -> 3) F stays 0: gain 0,
  // node 1 the tighter. Best fit takes node 0 and leaves one GPU no 2-GPU job can use.
  EXPECT_EQ(f.nodes_of(f.place(*frag, 5)), (std::set<uint32_t>{1}));
  EXPECT_EQ(f.nodes_of(f.place(*pack, 5)), (std::set<uint32_t>{0}));
  // A job offered again is not counted twice: still node 1.
  EXPECT_EQ(f.nodes_of(f.place(*frag, 5)), (std::set<uint32_t>{1}));
  // 6 GPUs fit no 4-GPU node: placed as pack places them (9 free in all).
  EXPECT_EQ(f.place(*frag, 6), f.place(*pack, 6));
  EXPECT_EQ(f.place(*frag, 6)->size(), 6u);
}

TEST(FragPlacement, IsRegisteredForSimAndServe) {
  // `boreas sim` and `boreas serve` both take their placements from register_baseline.
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  EXPECT_TRUE(registry.check_placement("frag").is_ok());
  policy::PolicyOptions options;
  options.placement = "frag";
  auto scheduler = registry.make("fifo", options);
  EXPECT_TRUE(scheduler.is_ok());
}

}  // namespace
}  // namespace boreas
