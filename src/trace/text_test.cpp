#include "trace/text.h"

#include <gtest/gtest.h>

namespace boreas::trace {
namespace {

TEST(Text, ParsesDateTimesAsUtc) {
  EXPECT_EQ(parse_datetime("1970-01-01 00:00:00")->us(), 0);
  EXPECT_EQ(parse_datetime("2017-10-09 07:01:55")->us(), int64_t{1507532515} * 1'000'000);
  EXPECT_EQ(parse_datetime("2024-02-29T12:00:00.25Z")->us(), int64_t{1709208000} * 1'000'000 + 250'000);
  EXPECT_FALSE(parse_datetime("2024-13-01 00:00:00"));
  EXPECT_FALSE(parse_datetime("2024-01-01"));
  EXPECT_FALSE(parse_datetime("2024-01-01 00:00:00 extra"));
}

TEST(Text, SplitsQuotedCsv) {
  std::vector<std::string_view> f;
  std::deque<std::string> scratch;
  ASSERT_TRUE(split_csv(R"(a,"b,c","d""e",,f)", ',', f, scratch));
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[1], "b,c");
  EXPECT_EQ(f[2], "d\"e");
  EXPECT_EQ(f[3], "");
  EXPECT_FALSE(split_csv(R"(a,"b)", ',', f, scratch));
}

TEST(Text, NumbersAndScaledValues) {
  EXPECT_EQ(parse_int(" 42 "), 42);
  EXPECT_FALSE(parse_int("4x"));
  EXPECT_EQ(parse_scaled("2.5", 1'000'000), 2'500'000);
  EXPECT_EQ(parse_scaled("3", 60'000'000), 180'000'000);
  EXPECT_FALSE(parse_scaled("1e300", 1));
  EXPECT_FALSE(parse_double("nan"));
}

}  // namespace
}  // namespace boreas::trace
