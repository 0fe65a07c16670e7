#include "core/time.h"

#include <gtest/gtest.h>

namespace boreas {
namespace {

TEST(Duration, ConstructorsAgree) {
  EXPECT_EQ(Duration::seconds(90).us(), 90'000'000);
  EXPECT_EQ(Duration::minutes(2), Duration::seconds(120));
  EXPECT_EQ(Duration::hours(1), Duration::minutes(60));
  EXPECT_EQ(Duration::millis(3).us(), 3000);
}

TEST(Duration, FromSecondsRoundsToNearestMicrosecond) {
  EXPECT_EQ(Duration::from_seconds(12.5).us(), 12'500'000);
  EXPECT_EQ(Duration::from_seconds(0.0000015).us(), 2);
  EXPECT_EQ(Duration::from_seconds(-1.25).us(), -1'250'000);
}

TEST(Duration, PrintsShortHumanForm) {
  EXPECT_EQ(to_string(Duration::micros(250)), "250us");
  EXPECT_EQ(to_string(Duration::millis(250)), "250ms");
  EXPECT_EQ(to_string(Duration::from_seconds(4.5)), "4.5s");
  EXPECT_EQ(to_string(Duration::seconds(3723)), "1h02m03s");
  EXPECT_EQ(to_string(Duration::seconds(125)), "2m05s");
  EXPECT_EQ(to_string(Duration::seconds(-5)), "-5.0s");
  EXPECT_EQ(to_string(Duration::infinite()), "inf");
}

TEST(Time, ArithmeticWithDurations) {
  const Time t = Time::from_seconds(100);
  EXPECT_EQ((t + Duration::seconds(5)) - t, Duration::seconds(5));
  EXPECT_LT(t, t + Duration::micros(1));
  EXPECT_EQ(to_string(Time::from_micros(3'600'000'001)), "3600.000001");
  EXPECT_EQ(to_string(Time::never()), "never");
}

}  // namespace
}  // namespace boreas
