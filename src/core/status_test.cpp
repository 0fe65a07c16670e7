#include "core/status.h"

#include <gtest/gtest.h>

#include <string>

namespace boreas {
namespace {

Result<int> parse_positive(int v) {
  if (v <= 0) {
    return invalid_argument("value must be positive, got " + std::to_string(v));
  }
  return v;
}

Status twice(int v) {
  BOREAS_RETURN_IF_ERROR(parse_positive(v).is_ok() ? Status::ok() : parse_positive(v).status());
  return Status::ok();
}

TEST(Result, HoldsValueOrError) {
  auto good = parse_positive(3);
  ASSERT_TRUE(good.is_ok());
  EXPECT_EQ(*good, 3);
  auto bad = parse_positive(-1);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "value must be positive, got -1");
}

TEST(Status, ContextIsPrefixed) {
  const Status s = invalid_argument("bad count").with_context("a.yaml:3:5: ");
  EXPECT_EQ(s.message(), "a.yaml:3:5: bad count");
  EXPECT_FALSE(twice(0).is_ok());
  EXPECT_TRUE(twice(2).is_ok());
}

}  // namespace
}  // namespace boreas
