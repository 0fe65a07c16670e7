#include "slurm/topology.h"

#include <gtest/gtest.h>

#include "slurm/test_fixture.h"

namespace boreas::slurm {
namespace {

using testing::fixture;

using Names = std::vector<std::string>;

// tests/fixtures/slurm/topology.txt: `scontrol show topology` of the 4-node fixture cluster.
TEST(Topology, LeavesAndSpineFromRealOutput) {
  auto t = parse_topology(fixture("topology.txt"));
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  ASSERT_EQ(t->size(), 3u);
  EXPECT_EQ((*t)[0].name, "leaf1");
  EXPECT_EQ((*t)[0].level, 0u);
  EXPECT_EQ((*t)[0].nodes, (Names{"n1", "n2"}));
  EXPECT_EQ((*t)[1].nodes, (Names{"n3", "n4"}));
  EXPECT_EQ((*t)[2].name, "spine");
  EXPECT_EQ((*t)[2].level, 1u);
  EXPECT_EQ((*t)[2].switches, (Names{"leaf1", "leaf2"}));
}

TEST(Topology, EmptyAndMalformed) {
  EXPECT_TRUE(parse_topology("")->empty());
  auto bad = parse_topology("SwitchName=a Nodes=n1\nSwitchName=b Level=x\n");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("line 2"), std::string::npos);
  EXPECT_NE(bad.status().message().find("'x'"), std::string::npos);
}

}  // namespace
}  // namespace boreas::slurm
