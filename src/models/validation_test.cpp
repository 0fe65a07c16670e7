#include "models/validation.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace boreas::models {
namespace {

const ValidationRow& row(const ValidationReport& r, const std::string& prefix) {
  const auto it = std::find_if(r.rows.begin(), r.rows.end(),
                               [&](const ValidationRow& x) { return x.check.rfind(prefix, 0) == 0; });
  EXPECT_NE(it, r.rows.end()) << prefix;
  return *it;
}

class ValidationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { report_ = new ValidationReport(run_validation(1)); }
  static void TearDownTestSuite() { delete report_; }
  static ValidationReport* report_;
};
ValidationReport* ValidationTest::report_ = nullptr;

// FACTS §2.3 health rule: within 20% of the measured busbw.
TEST_F(ValidationTest, InNodeBusBwWithinTheHealthRule) {
  EXPECT_GT(row(*report_, "all-reduce busbw, 8x H100").model, 460 * 0.8);
  EXPECT_NEAR(row(*report_, "all-reduce busbw, 8x A100").model, 235, 235 * 0.2);
  EXPECT_NEAR(row(*report_, "all-reduce busbw, 8x B200").model, 741, 741 * 0.2);
}

// FACTS §2.3/§5.1: about 2× from 1 to 4 B200 nodes at large messages; 7–120× below 1 MiB.
TEST_F(ValidationTest, MultiNodePenalty) {
  EXPECT_NEAR(row(*report_, "busbw ratio 1 node / 4 nodes").model, 2.0, 0.2);
  EXPECT_GE(row(*report_, "B200 4 nodes / 1 node all-reduce time at 32 KiB").model, 7);
  EXPECT_GE(row(*report_, "B200 4 nodes / 1 node all-reduce time at 1024 KiB").model, 7);
}

TEST_F(ValidationTest, FailureIntervalWithinTenPercentOfLlama3) {
  EXPECT_NEAR(row(*report_, "16,384-GPU job").model, 3.1, 0.31);
}

TEST_F(ValidationTest, SplittingAGangAcrossRacksLowersEfficiency) {
  const auto& s = report_->split;
  ASSERT_EQ(s.size(), 4u);
  EXPECT_DOUBLE_EQ(s[0].efficiency, 1.0);
  for (size_t i = 1; i < s.size(); ++i) {
    EXPECT_LT(s[i].efficiency, s[i - 1].efficiency) << s[i].placement;
    EXPECT_GT(s[i].comm_ms, s[i - 1].comm_ms) << s[i].placement;
  }
}

TEST_F(ValidationTest, SweepMinimumIsAtYoungOrDaly) {
  const auto& sweep = report_->sweep;
  const auto best = std::min_element(
      sweep.begin(), sweep.end(),
      [](const SweepPoint& a, const SweepPoint& b) { return a.simulated_waste < b.simulated_waste; });
  EXPECT_GE(best->interval_s, report_->daly_s * 0.99);
  EXPECT_LE(best->interval_s, report_->young_s * 1.01);
}

}  // namespace
}  // namespace boreas::models
