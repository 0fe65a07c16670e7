// The block-hash prefix cache: LRU semantics by hand, then Mooncake's reported reuse (FAST'25:
// ~40% of prompt tokens reusable with an unbounded cache; Fig. 9's hit ratio against cache size).
#include <gtest/gtest.h>

#include <vector>

#include "serving/prefix_cache.h"
#include "serving/request_trace.h"

namespace boreas::serving {
namespace {

TEST(PrefixCacheTest, OnlyTheLeadingRunOfCachedBlocksCounts) {
  PrefixCache c(PrefixCache::kUnbounded, 512);
  EXPECT_EQ(c.access(std::vector<uint64_t>{1, 2, 3}), 0u);
  EXPECT_EQ(c.access(std::vector<uint64_t>{1, 2, 9}), 2u);
  EXPECT_EQ(c.access(std::vector<uint64_t>{7, 2, 3}), 0u);  // 2 and 3 are cached but not a prefix
  EXPECT_EQ(c.peek(std::vector<uint64_t>{1, 2, 3, 4}), 3u);
  EXPECT_EQ(c.size_blocks(), 5u);  // 1, 2, 3, 9, 7
}

TEST(PrefixCacheTest, EvictsTheLeastRecentlyUsedBlock) {
  PrefixCache c(2 * 512, 512);  // two blocks
  c.access(std::vector<uint64_t>{1});
  c.access(std::vector<uint64_t>{2});
  c.access(std::vector<uint64_t>{1});  // 1 is now the most recent
  c.access(std::vector<uint64_t>{3});  // evicts 2
  EXPECT_EQ(c.peek(std::vector<uint64_t>{1}), 1u);
  EXPECT_EQ(c.peek(std::vector<uint64_t>{2}), 0u);
  EXPECT_EQ(c.peek(std::vector<uint64_t>{3}), 1u);
}

TEST(PrefixCacheTest, HitTokensCountTheShortLastBlock) {
  EXPECT_EQ(hit_tokens(2, 3, 1100, 512), 1024);
  EXPECT_EQ(hit_tokens(3, 3, 1100, 512), 1100);  // whole prompt cached
  EXPECT_EQ(hit_tokens(0, 3, 1100, 512), 0);
}

double mooncake_hit_ratio(const RequestTrace& t, int64_t capacity_tokens) {
  PrefixCache cache(capacity_tokens, t.block_tokens);
  PrefixStats s;
  for (const auto& r : t.requests) {
    const auto blocks = t.blocks_of(r);
    s.hit_tokens += hit_tokens(cache.access(blocks), blocks.size(), r.input_tokens, t.block_tokens);
    s.prompt_tokens += r.input_tokens;
  }
  return s.ratio();
}

// One test for the three points, so the trace is read once (~1 s).
TEST(PrefixCacheTest, MooncakeReuseHasThePapersShape) {
  auto t = read_request_trace(std::string(BOREAS_SOURCE_DIR) + "/data/traces/mooncake-fast25/conversation_trace.jsonl.gz");
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  const double unbounded = mooncake_hit_ratio(*t, PrefixCache::kUnbounded);
  // The paper says ~40%; this trace gives 37.4% of prompt tokens (36.6% counted in blocks),
  // inside the 3-point band but below the paper's figure (docs/serving.md).
  EXPECT_NEAR(unbounded, 0.40, 0.03);
  const double small = mooncake_hit_ratio(*t, 3'000'000);
  const double large = mooncake_hit_ratio(*t, 50'000'000);
  EXPECT_LT(small, 0.5 * unbounded);   // Fig. 9: a 3M-token cache gets under half
  EXPECT_GE(large, 0.95 * unbounded);  // 50M tokens get nearly all of it
  EXPECT_LT(small, large);
}

}  // namespace
}  // namespace boreas::serving
