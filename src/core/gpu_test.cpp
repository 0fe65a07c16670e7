#include "core/gpu.h"

#include <gtest/gtest.h>

namespace boreas {
namespace {

GpuType type(std::string name, std::vector<std::string> aliases = {}) {
  GpuType t;
  t.name = std::move(name);
  t.aliases = std::move(aliases);
  return t;
}

TEST(GpuCatalog, FindsByNameOrAliasIgnoringCase) {
  GpuCatalog c;
  ASSERT_TRUE(c.add(type("V100-16G", {"V100M16"})));
  ASSERT_TRUE(c.add(type("H100-SXM")));
  EXPECT_EQ(c.find("h100-sxm")->value(), 1u);
  EXPECT_EQ(c.find("V100M16")->value(), 0u);
  EXPECT_FALSE(c.find("B300").has_value());
}

TEST(GpuCatalog, RejectsDuplicateNamesAndAliases) {
  GpuCatalog c;
  ASSERT_TRUE(c.add(type("A100-80G", {"A100"})));
  EXPECT_FALSE(c.add(type("a100-80g")));
  EXPECT_FALSE(c.add(type("A100-40G", {"A100"})));
  EXPECT_EQ(c.size(), 1u);
}

}  // namespace
}  // namespace boreas
