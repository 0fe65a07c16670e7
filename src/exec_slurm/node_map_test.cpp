#include "exec_slurm/node_map.h"

#include <gtest/gtest.h>

#include "config/cluster_spec.h"

namespace boreas::exec_slurm {
namespace {

slurm::SlurmNode node(const std::string& name, const std::string& gres) {
  slurm::SlurmNode n;
  n.name = name;
  n.gres = *slurm::parse_gres_list(gres);
  n.cpus = 64;
  n.memory_mib = 1024 * 1024;
  return n;
}

Cluster spec(const std::string& groups) {
  auto c = config::load_cluster_string("name: t\ngroups:\n" + groups, "t.yaml");
  EXPECT_TRUE(c.is_ok()) << c.status().message();
  return c.is_ok() ? std::move(*c) : Cluster{};
}

const std::vector<slurm::SlurmSwitch> kLeaves{{"leaf1", 0, {"n1", "n2"}, {}}, {"leaf2", 0, {"n3"}, {}}};

// The spec `cluster import --slurm` writes for n1,n2 (leaf1) and n3 (leaf2): nodes map in order.
TEST(NodeMap, ImportedSpecMapsNodeByNode) {
  const Cluster c = spec(
      "  - {name: leaf1, count: 2, gpu: H100-SXM, gpus_per_node: 8, nodes_per_rack: 2, cpus: 64, memory_gib: "
      "1024}\n"
      "  - {name: leaf2, count: 1, gpu: A100-80G, gpus_per_node: 4, nodes_per_rack: 1, cpus: 64, memory_gib: "
      "1024}\n");
  auto m = map_nodes(c, {node("n1", "gpu:h100:8"), node("n2", "gpu:h100:8"), node("n3", "gpu:a100-80g:4")},
                     kLeaves);
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  ASSERT_EQ(m->size(), 3u);
  EXPECT_EQ(m->at(c.nodes[0].name).name, "n1");
  EXPECT_EQ(m->at(c.nodes[1].name).name, "n2");
  EXPECT_EQ(m->at(c.nodes[2].name).name, "n3");
  EXPECT_EQ(m->at(c.nodes[2].name).gres_type, "a100-80g");
}

TEST(NodeMap, DisagreementIsRefusedSayingWhere) {
  const Cluster c = spec(
      "  - {name: g, count: 3, gpu: H100-SXM, gpus_per_node: 8, nodes_per_rack: 3, cpus: 64, memory_gib: "
      "1024}\n");
  auto m = map_nodes(c, {node("n1", "gpu:h100:8"), node("n2", "gpu:h100:8"), node("n3", "gpu:a100-80g:4")},
                     kLeaves);
  ASSERT_FALSE(m.is_ok());
  EXPECT_NE(m.status().message().find("node 3 of the spec (" + c.nodes[2].name +
                                      ") has 8 H100-SXM GPUs, but Slurm node n3 has 4 A100-80G GPUs"),
            std::string::npos)
      << m.status().message();
  EXPECT_NE(m.status().message().find("boreas cluster import --slurm"), std::string::npos);
  auto count = map_nodes(c, {node("n1", "gpu:h100:8")}, kLeaves);
  ASSERT_FALSE(count.is_ok());
  EXPECT_NE(count.status().message().find("the cluster spec has 3 nodes, Slurm has 1"), std::string::npos);
}

}  // namespace
}  // namespace boreas::exec_slurm

#include "exec_slurm/node_watch.h"

namespace boreas::exec_slurm {
namespace {

slurm::SlurmNode with_state(const std::string& name, const std::string& state,
                            std::vector<std::string> flags) {
  slurm::SlurmNode n;
  n.name = name;
  n.state = state;
  n.flags = std::move(flags);
  return n;
}

server::NodeView view(const std::string& name, bool drained, bool by_executor = false) {
  server::NodeView v;
  v.name = name;
  v.drained = drained;
  v.drained_by_executor = by_executor;
  return v;
}

// Slurm drains b and downs c: both drained in Boreas; a, drained in Boreas, is drained in Slurm;
// when Slurm has b back it is resumed, c (still down) stays; resuming a in Boreas resumes it in Slurm.
TEST(NodeWatch, SlurmOutOfServiceDrainsAndReturnResumesOnlyOurOwn) {
  const NodeMap map{{"a", {"n1", "h100"}}, {"b", {"n2", "h100"}}, {"c", {"n3", "h100"}}};
  auto first = drain_changes(
      map, {with_state("n1", "idle", {}), with_state("n2", "idle", {"DRAIN"}), with_state("n3", "down", {})},
      {view("a", true), view("b", false), view("c", false)});
  // a: drained in Boreas by an operator while Slurm has n1 in service -> drained in Slurm too
  EXPECT_EQ(first, (std::vector<DrainChange>{{"a", true, true}, {"b", true, false}, {"c", true, false}}));
  slurm::SlurmNode n1 = with_state("n1", "idle", {"DRAIN"});
  n1.reason = kBoreasDrainReason;
  // The controller now says b and c were drained by the executor (the watcher's set_drained).
  auto second = drain_changes(map, {n1, with_state("n2", "idle", {}), with_state("n3", "down", {})},
                              {view("a", true), view("b", true, true), view("c", true, true)});
  EXPECT_EQ(second, (std::vector<DrainChange>{{"b", false, false}}));  // a: Slurm's drain is ours, no echo
  // The operator resumes a in Boreas: Slurm's drain (marked as Boreas's) is lifted.
  auto third = drain_changes(map, {n1}, {view("a", false)});
  EXPECT_EQ(third, (std::vector<DrainChange>{{"a", false, true}}));
}

// The same node in service in Slurm and drained in Boreas: who drained it decides. An executor
// drain (read back from the store after a restart) is resumed; an operator's is carried into Slurm.
TEST(NodeWatch, WhoDrainedANodeDecidesWhenSlurmHasItBack) {
  const NodeMap map{{"a", {"n1", "h100"}}, {"b", {"n2", "h100"}}};
  const auto changes = drain_changes(map, {with_state("n1", "idle", {}), with_state("n2", "mixed", {})},
                                     {view("a", true, true), view("b", true, false)});
  EXPECT_EQ(changes, (std::vector<DrainChange>{{"a", false, false}, {"b", true, true}}));
}

}  // namespace
}  // namespace boreas::exec_slurm
