#include "server/jobs/output_path.h"

#include <gtest/gtest.h>

namespace boreas::server {
namespace {

TEST(OutputPath, ExpandsJobIdNameAndPercent) {
  EXPECT_EQ(expand_output_pattern("out-%j.log", JobId(42), "train"), "out-42.log");
  EXPECT_EQ(expand_output_pattern("/logs/%x/%j-%%.txt", JobId(7), "sweep_3"), "/logs/sweep_3/7-%.txt");
  EXPECT_EQ(expand_output_pattern("", JobId(1), "x"), "");
  EXPECT_EQ(expand_output_pattern("plain.log", JobId(1), "x"), "plain.log");
}

TEST(OutputPath, RefusesWhatItCannotExpandNamingTheField) {
  EXPECT_TRUE(check_output_pattern("output", "out-%j-%x-%%.log").is_ok());
  const Status unknown = check_output_pattern("output", "out-%A_%a.log");
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.message().find("$.output: unsupported escape `%A`"), std::string::npos) << unknown.message();
  const Status trailing = check_output_pattern("error", "err-%");
  ASSERT_FALSE(trailing.is_ok());
  EXPECT_NE(trailing.message().find("$.error: unsupported escape `%`"), std::string::npos) << trailing.message();
  EXPECT_FALSE(check_output_pattern("output", std::string("a\nb")).is_ok());
  EXPECT_FALSE(check_output_pattern("output", std::string("a\0b", 3)).is_ok());
  EXPECT_FALSE(check_output_pattern("output", std::string(4097, 'a')).is_ok());
}

}  // namespace
}  // namespace boreas::server
