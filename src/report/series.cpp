#include "report/series.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace boreas::report {

namespace {

XY bucket_mean(const std::vector<double>& x, const std::vector<double>& y, size_t begin, size_t end) {
  double sum_x = 0;
  double sum_y = 0;
  size_t valid = 0;
  for (size_t i = begin; i < end; ++i) {
    sum_x += x[i];
    if (!std::isnan(y[i])) {
      sum_y += y[i];
      ++valid;
    }
  }
  const double mean_x = sum_x / static_cast<double>(end - begin);
  const double mean_y = valid > 0 ? sum_y / static_cast<double>(valid) : std::numeric_limits<double>::quiet_NaN();
  return {mean_x, mean_y};
}

// Quantile q in [0, 1] of sorted values, linear between order statistics.
double quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

}  // namespace

std::vector<XY> downsample(const std::vector<double>& x, const std::vector<double>& y, size_t max_points) {
  assert(x.size() == y.size() && max_points > 0);
  std::vector<XY> out;
  const size_t n = x.size();
  if (n <= max_points) {
    for (size_t i = 0; i < n; ++i) {
      out.push_back({x[i], y[i]});
    }
    return out;
  }
  const size_t per_bucket = (n + max_points - 1) / max_points;
  for (size_t begin = 0; begin < n; begin += per_bucket) {
    out.push_back(bucket_mean(x, y, begin, std::min(begin + per_bucket, n)));
  }
  return out;
}

std::vector<XY> cdf_points(std::vector<double> values, size_t max_points) {
  assert(max_points > 0);
  std::sort(values.begin(), values.end());
  std::vector<XY> out;
  const size_t n = values.size();
  if (n <= max_points) {
    for (size_t i = 0; i < n; ++i) {
      out.push_back({values[i], static_cast<double>(i + 1) / static_cast<double>(n)});
    }
    return out;
  }
  for (size_t k = 1; k <= max_points; ++k) {
    const double q = static_cast<double>(k) / static_cast<double>(max_points);
    out.push_back({quantile(values, q), q});
  }
  return out;
}

}  // namespace boreas::report
