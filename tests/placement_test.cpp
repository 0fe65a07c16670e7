// One contract per placement on a 2-rack × 2-node × 4-GPU cluster with some GPUs taken.
#include <gtest/gtest.h>

#include <set>

#include "policy/placement.h"
#include "state/cluster_state.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

class PlacementTest : public ::testing::Test {
 protected:
  // Nodes 0,1 in rack 0; nodes 2,3 in rack 1. Job 0 holds 3 GPUs of node 0 and 1 of node 2, so
  // free: node0 1, node1 4, node2 3, node3 4.
  PlacementTest() : cluster_(testing::uniform_cluster(2, 2, 4)) {
    jobs_.add(0, 4, 100).add(0, 1, 10).add(0, 3, 10).add(0, 6, 10).add(0, 8, 10);
    state_ = std::make_unique<state::ClusterState>(cluster_, jobs_.jobs(), jobs_.symbols());
    for (uint32_t j = 0; j < 5; ++j) {
      EXPECT_TRUE(state_->submit(JobId(j), Time::zero()).is_ok());
    }
    const std::vector<GpuId> held{GpuId(0), GpuId(1), GpuId(2), GpuId(8)};
    EXPECT_TRUE(state_->start(JobId(0), held, Time::zero()).is_ok());
  }
  std::set<uint32_t> nodes_of(const std::optional<std::vector<GpuId>>& gpus) {
    std::set<uint32_t> out;
    for (GpuId g : *gpus) {
      out.insert(state_->node_of(g).value());
    }
    return out;
  }
  std::optional<std::vector<GpuId>> place(policy::Placement& p, uint32_t job) {
    state::ClusterView view(*state_, Time::zero());
    policy::Scratch scratch(view);
    return p.place(state_->spec(JobId(job)), scratch);
  }
  Cluster cluster_;
  testing::JobListBuilder jobs_;
  std::unique_ptr<state::ClusterState> state_;
};

TEST_F(PlacementTest, PackBestFitsOneNodeThenOneRack) {
  auto pack = policy::make_pack_placement();
  EXPECT_EQ(nodes_of(place(*pack, 1)), (std::set<uint32_t>{0}));     // 1 GPU: the node with 1 free
  EXPECT_EQ(nodes_of(place(*pack, 2)), (std::set<uint32_t>{2}));     // 3 GPUs: node with exactly 3
  EXPECT_EQ(nodes_of(place(*pack, 3)), (std::set<uint32_t>{2, 3}));  // 6: only rack 1 (7 free) holds it
}

// 2 racks × 4 nodes × 8 GPUs. Fewest nodes first, then one rack: a gang too big for a node takes
// the rack that needs the fewest nodes, not the rack it fills most tightly, and leaves one rack when
// that needs fewer nodes.
TEST(PackPlacement, FewestNodesThenOneRack) {
  const Cluster cluster = testing::uniform_cluster(2, 4, 8);
  auto pack_nodes = [&](std::vector<uint32_t> held_per_node, uint32_t gang) {
    std::vector<GpuId> held;
    for (uint32_t n = 0; n < held_per_node.size(); ++n) {
      for (uint32_t g = 0; g < held_per_node[n]; ++g) {
        held.push_back(GpuId(n * 8 + g));
      }
    }
    testing::JobListBuilder jobs;
    jobs.add(0, static_cast<uint32_t>(held.size()), 100).add(0, gang, 10);
    state::ClusterState st(cluster, jobs.jobs(), jobs.symbols());
    EXPECT_TRUE(st.submit(JobId(0), Time::zero()).is_ok());
    EXPECT_TRUE(st.submit(JobId(1), Time::zero()).is_ok());
    EXPECT_TRUE(st.start(JobId(0), held, Time::zero()).is_ok());
    state::ClusterView view(st, Time::zero());
    policy::Scratch scratch(view);
    auto gpus = policy::make_pack_placement()->place(st.spec(JobId(1)), scratch);
    std::set<uint32_t> nodes;
    for (GpuId g : gpus.value_or(std::vector<GpuId>{})) {
      nodes.insert(st.node_of(g).value());
    }
    return nodes;
  };
  // Rack 0: four nodes with 4 free (16, the tighter rack); rack 1: three whole free nodes.
  EXPECT_EQ(pack_nodes({4, 4, 4, 4, 0, 0, 0, 8}, 16), (std::set<uint32_t>{4, 5}));
  // Rack 0: 8, 2, 2, 2 free; rack 1: 8 free on node 4, the rest full. 12 GPUs: two nodes across
  // racks beat three in rack 0.
  EXPECT_EQ(pack_nodes({0, 6, 6, 6, 0, 8, 8, 8}, 12), (std::set<uint32_t>{0, 4}));
  // Same node count either way: one rack wins. Rack 0: 8, 4 free; rack 1: 8, 8 free. 12 GPUs.
  EXPECT_EQ(pack_nodes({0, 4, 8, 8, 0, 0, 8, 8}, 12), (std::set<uint32_t>{0, 1}));
}

TEST_F(PlacementTest, ConsolidatedNeedsWholeNodesForLargeGangs) {
  auto cons = policy::make_consolidated_placement();
  EXPECT_EQ(nodes_of(place(*cons, 2)), (std::set<uint32_t>{2}));
  EXPECT_FALSE(place(*cons, 4).has_value());  // 8 GPUs: no rack has two whole free nodes
  EXPECT_FALSE(place(*cons, 3).has_value());  // 6 GPUs: same
}

TEST_F(PlacementTest, FirstFitTakesLowestNode) {
  auto ff = policy::make_first_fit_placement();
  EXPECT_EQ(nodes_of(place(*ff, 1)), (std::set<uint32_t>{0}));
  EXPECT_EQ(nodes_of(place(*ff, 2)), (std::set<uint32_t>{1}));
}

TEST_F(PlacementTest, CountOnlyNeedsEnoughGpus) {
  auto count = policy::make_count_placement();
  EXPECT_EQ(place(*count, 4)->size(), 8u);
  EXPECT_EQ(nodes_of(place(*count, 2)).size(), 1u);  // fullest node first
}

TEST_F(PlacementTest, ScratchSeesEarlierClaimsInTheSameRound) {
  auto pack = policy::make_pack_placement();
  state::ClusterView view(*state_, Time::zero());
  policy::Scratch scratch(view);
  auto first = pack->place(state_->spec(JobId(2)), scratch);  // 3 GPUs → node 2
  scratch.claim(*first);
  auto second = pack->place(state_->spec(JobId(2)), scratch);
  ASSERT_TRUE(second.has_value());
  EXPECT_NE(nodes_of(first), nodes_of(second));
  EXPECT_EQ(scratch.total_free(), 9u);
}

}  // namespace
}  // namespace boreas
