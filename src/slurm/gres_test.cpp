#include "slurm/gres.h"

#include <gtest/gtest.h>

namespace boreas::slurm {
namespace {

TEST(Gres, TypedCountWithIndexes) {
  auto g = parse_gres_list("gpu:h100:2(IDX:0-1)");
  ASSERT_TRUE(g.is_ok()) << g.status().message();
  ASSERT_EQ(g->size(), 1u);
  EXPECT_EQ((*g)[0].name, "gpu");
  EXPECT_EQ((*g)[0].type, "h100");
  EXPECT_EQ((*g)[0].count, 2u);
  EXPECT_EQ((*g)[0].indexes, (std::vector<uint32_t>{0, 1}));
}

TEST(Gres, UntypedSocketAnnotatedAndSeveral) {
  auto g = parse_gres_list("gpu:8(S:0-1),gpu:a100:0(IDX:N/A),nic");
  ASSERT_TRUE(g.is_ok()) << g.status().message();
  ASSERT_EQ(g->size(), 3u);
  EXPECT_EQ((*g)[0].type, "");
  EXPECT_EQ((*g)[0].count, 8u);
  EXPECT_TRUE((*g)[0].indexes.empty());
  EXPECT_EQ((*g)[1].type, "a100");
  EXPECT_TRUE((*g)[1].indexes.empty());
  EXPECT_EQ((*g)[2].name, "nic");
  EXPECT_EQ((*g)[2].count, 1u);
  EXPECT_EQ(gpu_count(*g), 8u);
}

TEST(Gres, NullAndMalformed) {
  EXPECT_TRUE(parse_gres_list("(null)")->empty());
  EXPECT_TRUE(parse_gres_list("")->empty());
  auto bad = parse_gres_list("gpu:h100:x:1");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("gpu:h100:x:1"), std::string::npos);
  EXPECT_FALSE(parse_gres_list("gpu:h100:2(IDX:0-1").is_ok());
}

}  // namespace
}  // namespace boreas::slurm
