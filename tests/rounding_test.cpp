// Property: llround_inline (core/rounding.h; ClusterState::work_done_at's rounding) equals
// std::llround on random doubles of every magnitude and sign, on halves and on the doubles either
// side of each half, on products of microseconds and rates as work_done_at forms them, and on the
// values past the in-line range (±2^62 and beyond, infinities and NaN go to std::llround).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "core/rounding.h"

namespace boreas {
namespace {

void expect_llround(double x) {
  ASSERT_EQ(llround_inline(x), std::llround(x)) << std::hexfloat << x;
}

TEST(RoundingProperty, InlineEqualsLlroundOnRandomAndBoundaryValues) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < 200000; ++i) {
    const double magnitude = std::ldexp(unit(rng), static_cast<int>(rng() % 66) - 2);  // up to 2^64
    const double x = rng() % 2 == 0 ? magnitude : -magnitude;
    expect_llround(x);
    const double half = std::floor(x) + 0.5;  // a half and its neighbours
    expect_llround(half);
    expect_llround(std::nextafter(half, 0.0));
    expect_llround(std::nextafter(half, std::numeric_limits<double>::infinity()));
    expect_llround(std::nextafter(half, -std::numeric_limits<double>::infinity()));
    const double us = static_cast<double>(rng() % (uint64_t{1} << 45));  // microseconds ran, times a rate
    expect_llround(us * unit(rng));
    expect_llround(-us * unit(rng));
  }
  for (const double edge : {0.0, -0.0, 0.5, -0.5, 0.49999999999999994, -0.49999999999999994, 1.5, -1.5, 2.5,
                            0x1p52 + 0.5, 0x1p52 - 0.5, 0x1p53 + 1, std::nextafter(0x1p62, 0.0), 0x1p62,
                            -0x1p62, std::nextafter(-0x1p62, 0.0)}) {
    expect_llround(edge);
  }
}

}  // namespace
}  // namespace boreas
