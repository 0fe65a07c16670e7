#pragma once
// Reductions that keep a large run's page small: time series down-sampled to a point budget,
// per-job values reduced to a CDF of a bounded number of quantile points.

#include <cstddef>
#include <vector>

namespace boreas::report {

struct XY {
  double x = 0;
  double y = 0;
  bool operator==(const XY&) const = default;
};

// At most `max_points` points: consecutive samples are grouped in equal-size buckets and each
// bucket becomes one point at its mean time with its mean value (NaN samples are left out of the
// mean; a bucket of only NaN keeps NaN). Keeps the area under the curve, so averages stay right.
std::vector<XY> downsample(const std::vector<double>& x, const std::vector<double>& y, size_t max_points);

// The empirical CDF of `values` as (value, fraction of values ≤ value) points, at most
// `max_points` of them. With n ≤ max_points every value is a point (fraction (i+1)/n after
// sorting); otherwise the points are the quantiles at evenly spaced fractions from 1/max to 1,
// by linear interpolation between order statistics.
std::vector<XY> cdf_points(std::vector<double> values, size_t max_points);

}  // namespace boreas::report
