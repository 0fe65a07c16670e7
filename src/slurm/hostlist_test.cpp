#include "slurm/hostlist.h"

#include <gtest/gtest.h>

namespace boreas::slurm {
namespace {

using Names = std::vector<std::string>;

TEST(Hostlist, ExpandsRangesListsAndPadding) {
  EXPECT_EQ(*expand_hostlist("n[1,4]"), (Names{"n1", "n4"}));
  EXPECT_EQ(*expand_hostlist("n[1-3],m5"), (Names{"n1", "n2", "n3", "m5"}));
  EXPECT_EQ(*expand_hostlist("gpu-a[08-10]"), (Names{"gpu-a08", "gpu-a09", "gpu-a10"}));
  EXPECT_EQ(*expand_hostlist("r[1-2]n[1-2]"), (Names{"r1n1", "r1n2", "r2n1", "r2n2"}));
  EXPECT_TRUE(expand_hostlist("")->empty());
}

TEST(Hostlist, RejectsMalformedListsSayingWhy) {
  auto open = expand_hostlist("n[1-2");
  ASSERT_FALSE(open.is_ok());
  EXPECT_NE(open.status().message().find("'[' without ']'"), std::string::npos);
  auto backwards = expand_hostlist("n[5-2]");
  ASSERT_FALSE(backwards.is_ok());
  EXPECT_NE(backwards.status().message().find("'5-2'"), std::string::npos);
  EXPECT_FALSE(expand_hostlist("n[a-b]").is_ok());
}

// Found by fuzz_slurm_cli: nested ranges multiply; the list is refused instead of eating memory.
TEST(Hostlist, RefusesListsThatExpandBeyondAnyCluster) {
  auto huge = expand_hostlist("a[0-99999]b[0-99999]");
  ASSERT_FALSE(huge.is_ok());
  EXPECT_NE(huge.status().message().find("expands to more than 1000000 names or 32 MiB"), std::string::npos);
  EXPECT_EQ(expand_hostlist("a[0-99]b[0-999]")->size(), 100'000u);
}

TEST(Hostlist, IndexRanges) {
  EXPECT_EQ(*expand_ranges("0-1,4"), (std::vector<uint32_t>{0, 1, 4}));
  EXPECT_FALSE(expand_ranges("3-1").is_ok());
  EXPECT_EQ(join_hostlist({"n1", "n4"}), "n1,n4");
}

}  // namespace
}  // namespace boreas::slurm
