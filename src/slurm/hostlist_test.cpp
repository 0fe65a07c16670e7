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

TEST(Hostlist, IndexRanges) {
  EXPECT_EQ(*expand_ranges("0-1,4"), (std::vector<uint32_t>{0, 1, 4}));
  EXPECT_FALSE(expand_ranges("3-1").is_ok());
  EXPECT_EQ(join_hostlist({"n1", "n4"}), "n1,n4");
}

}  // namespace
}  // namespace boreas::slurm
