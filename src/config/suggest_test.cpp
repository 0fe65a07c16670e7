#include "config/suggest.h"

#include <gtest/gtest.h>

namespace boreas::config {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsCaseInsensitively) {
  EXPECT_EQ(edit_distance("count", "count"), 0u);
  EXPECT_EQ(edit_distance("cout", "count"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("H100", "h100"), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(Closest, SuggestsOnlyPlausibleTypos) {
  const std::vector<std::string> keys = {"count", "cpus", "gpus_per_node"};
  EXPECT_EQ(closest("cuont", keys), "count");
  EXPECT_EQ(closest("gpu_per_node", keys), "gpus_per_node");
  EXPECT_FALSE(closest("zebra", keys).has_value());
  EXPECT_EQ(did_you_mean("zebra", keys), "");
  EXPECT_EQ(did_you_mean("cpu", keys), "did you mean 'cpus'?");
}

TEST(Join, SeparatesItems) {
  EXPECT_EQ(join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(join({"a", "b"}, " -> "), "a -> b");
  EXPECT_EQ(join({}), "");
}

}  // namespace
}  // namespace boreas::config
