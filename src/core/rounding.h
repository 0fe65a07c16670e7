#pragma once
// std::llround inline: the nearest integer, halves away from zero, the same value as the libm call
// for every double (a call per job per instant in ClusterState::work_done_at was 1.6% of the gittins
// demo row). For |x| < 2^62 the integer part is a cast (toward zero) and x minus it is exact (its
// bits are x's fraction bits), so comparing that fraction with ±0.5 rounds as llround does; larger
// magnitudes, infinities and NaN go to std::llround.

#include <cmath>
#include <cstdint>

namespace boreas {

inline int64_t llround_inline(double x) {
  if (!(std::fabs(x) < 0x1p62)) {
    return std::llround(x);
  }
  const auto whole = static_cast<int64_t>(x);
  const double fraction = x - static_cast<double>(whole);
  return whole + (fraction >= 0.5 ? 1 : 0) - (fraction <= -0.5 ? 1 : 0);
}

}  // namespace boreas
