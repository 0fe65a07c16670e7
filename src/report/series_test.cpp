#include "report/series.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace boreas::report {
namespace {

TEST(Downsample, ShortSeriesIsUnchanged) {
  EXPECT_EQ(downsample({0, 1, 2}, {5, 6, 7}, 3), (std::vector<XY>{{0, 5}, {1, 6}, {2, 7}}));
}

TEST(Downsample, BucketsAverageTimeAndValue) {
  // 10 samples, at most 4 points: buckets of 3, 3, 3 and 1.
  std::vector<double> x{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<double> y{3, 6, 9, 0, 0, 3, 1, 1, 1, 8};
  EXPECT_EQ(downsample(x, y, 4), (std::vector<XY>{{1, 6}, {4, 1}, {7, 1}, {9, 8}}));
}

TEST(Downsample, NanSamplesAreLeftOutOfTheMean) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto out = downsample({0, 1, 2, 3}, {nan, 4, nan, nan}, 2);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (XY{0.5, 4}));
  EXPECT_TRUE(std::isnan(out[1].y));
}

TEST(Downsample, LongSeriesStaysWithinBudget) {
  std::vector<double> x(26'000);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<double>(i) * 300;
  }
  EXPECT_LE(downsample(x, x, 2000).size(), 2000u);
}

TEST(CdfPoints, SmallInputKeepsEveryValue) {
  EXPECT_EQ(cdf_points({30, 10, 20}, 10), (std::vector<XY>{{10, 1.0 / 3}, {20, 2.0 / 3}, {30, 1}}));
}

TEST(CdfPoints, LargeInputBecomesEvenQuantiles) {
  // Five values, four points: the quantiles at 0.25, 0.5, 0.75 and 1 (positions 1, 2, 3, 4).
  EXPECT_EQ(cdf_points({40, 0, 10, 30, 20}, 4), (std::vector<XY>{{10, 0.25}, {20, 0.5}, {30, 0.75}, {40, 1}}));
}

TEST(CdfPoints, InterpolatesBetweenOrderStatistics) {
  // Three values, two points: q = 0.5 at position 1 (= 20), q = 1 at position 2.
  EXPECT_EQ(cdf_points({0, 20, 100}, 2), (std::vector<XY>{{20, 0.5}, {100, 1}}));
  // Four values, three points: q = 1/3 at position 1 exactly, q = 2/3 at position 2.
  const auto out = cdf_points({0, 3, 6, 12}, 3);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_DOUBLE_EQ(out[0].x, 3);
  EXPECT_DOUBLE_EQ(out[1].x, 6);
}

TEST(CdfPoints, EmptyInputHasNoPoints) { EXPECT_TRUE(cdf_points({}, 5).empty()); }

}  // namespace
}  // namespace boreas::report
