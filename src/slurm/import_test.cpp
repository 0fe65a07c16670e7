#include "slurm/import.h"

#include <gtest/gtest.h>

#include "slurm/test_fixture.h"

#include "config/gpu_catalog_yaml.h"

namespace boreas::slurm {
namespace {

using testing::fixture;

GpuCatalog builtin() {
  GpuCatalog c;
  EXPECT_TRUE(config::add_catalog_yaml(std::string(config::builtin_gpus_yaml()), "gpus.yaml", &c).is_ok());
  return c;
}

SlurmNode node(const std::string& name, const std::string& gres, uint32_t cpus = 64) {
  SlurmNode n;
  n.name = name;
  n.gres = *parse_gres_list(gres);
  n.cpus = cpus;
  n.memory_mib = 512 * 1024;
  return n;
}

using Names = std::vector<std::string>;

// The fixture cluster: n1,n2 under leaf1 and n3,n4 under leaf2, 8 h100 each -> two racks.
TEST(SlurmImport, FixtureClusterOneRackPerLeaf) {
  auto nodes = parse_nodes_json(fixture("sinfo-drain.json"));
  auto topo = parse_topology(fixture("topology.txt"));
  ASSERT_TRUE(nodes.is_ok() && topo.is_ok());
  auto c = import_cluster("lab", *nodes, *topo, builtin());
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  ASSERT_EQ(c->groups.size(), 2u);
  EXPECT_EQ(c->groups[0].name, "leaf1");
  EXPECT_EQ(c->groups[0].slurm_nodes, (Names{"n1", "n2"}));
  EXPECT_EQ(c->groups[0].gpu, "H100-SXM");
  EXPECT_EQ(c->groups[0].gpus_per_node, 8u);
  EXPECT_EQ(c->groups[1].slurm_nodes, (Names{"n3", "n4"}));
  EXPECT_EQ(c->node_names(), (Names{"n1", "n2", "n3", "n4"}));
  const std::string yaml = to_yaml(*c);
  EXPECT_NE(
      yaml.find("- {name: leaf2, count: 2, gpu: H100-SXM, gpus_per_node: 8, nodes_per_rack: 2, cpus: 64, "
                "memory_gib: 976.5625}"),
      std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("# slurm nodes: n3,n4"), std::string::npos);
}

TEST(SlurmImport, ShapesSplitGroupsAndUnswitchedNodesShareARack) {
  const std::vector<SlurmNode> nodes{node("a1", "gpu:a100:4"), node("a2", "gpu:a100:4"),
                                     node("a3", "(null)", 32), node("z9", "gpu:h100:8")};
  SlurmSwitch leaf{"sw", 0, {"a1", "a2", "a3"}, {}};
  auto c = import_cluster("x", nodes, {leaf}, builtin());
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  ASSERT_EQ(c->groups.size(), 3u);
  EXPECT_EQ(c->groups[0].name, "sw");
  EXPECT_EQ(c->groups[0].slurm_nodes.size(), 2u);
  EXPECT_EQ(c->groups[1].name, "sw-2");
  EXPECT_EQ(c->groups[1].gpus_per_node, 0u);
  EXPECT_EQ(c->groups[1].gpu, "");
  EXPECT_EQ(c->groups[2].name, "unswitched");
  EXPECT_EQ(c->groups[2].slurm_nodes, Names{"z9"});
}

TEST(SlurmImport, LoudOnUnknownUntypedOrMixedGpus) {
  auto unknown = import_cluster("x", {node("a1", "gpu:zz9000:4")}, {}, builtin());
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.status().message().find("Slurm node a1: GPU type 'zz9000' is not in the GPU catalog"),
            std::string::npos)
      << unknown.status().message();
  auto untyped = import_cluster("x", {node("a1", "gpu:4")}, {}, builtin());
  ASSERT_FALSE(untyped.is_ok());
  EXPECT_NE(untyped.status().message().find("has no type"), std::string::npos);
  auto mixed = import_cluster("x", {node("a1", "gpu:a100:4,gpu:h100:4")}, {}, builtin());
  ASSERT_FALSE(mixed.is_ok());
  EXPECT_NE(mixed.status().message().find("several types (a100, h100)"), std::string::npos);
  EXPECT_FALSE(import_cluster("x", {}, {}, builtin()).is_ok());
}

}  // namespace
}  // namespace boreas::slurm
