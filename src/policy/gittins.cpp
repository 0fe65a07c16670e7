#include "policy/gittins.h"

#include <algorithm>
#include <limits>

namespace boreas::policy {

void GittinsTable::add(int64_t service) {
  pending_.push_back(service);
}

bool GittinsTable::refresh() {
  if (pending_.empty() || (!sorted_.empty() && pending_.size() * 16 < sorted_.size())) {
    return false;
  }
  std::sort(pending_.begin(), pending_.end());
  std::vector<int64_t> merged(sorted_.size() + pending_.size());
  std::merge(sorted_.begin(), sorted_.end(), pending_.begin(), pending_.end(), merged.begin());
  sorted_ = std::move(merged);
  pending_.clear();
  ++version_;
  prefix_.assign(sorted_.size() + 1, 0.0);
  for (size_t i = 0; i < sorted_.size(); ++i) {
    prefix_[i + 1] = prefix_[i] + static_cast<double>(sorted_[i]);
  }
  index_distinct();
  return true;
}

// The cursor's table: each distinct sample with the count and sum of the samples below it, read
// from prefix_ so that a cursor's sums are the plain path's doubles.
void GittinsTable::index_distinct() {
  values_.clear();
  below_.clear();
  below_sum_.clear();
  for (size_t i = 0; i < sorted_.size(); ++i) {
    if (i == 0 || sorted_[i] != sorted_[i - 1]) {
      values_.push_back(sorted_[i]);
      below_.push_back(static_cast<int64_t>(i));
      below_sum_.push_back(prefix_[i]);
    }
  }
  below_.push_back(static_cast<int64_t>(sorted_.size()));
  below_sum_.push_back(prefix_[sorted_.size()]);
}

double GittinsTable::index(int64_t attained, int64_t delta) {
  const auto lo = std::upper_bound(sorted_.begin(), sorted_.end(), attained) - sorted_.begin();
  const auto hi = std::upper_bound(sorted_.begin(), sorted_.end(), attained + delta) - sorted_.begin();
  return index_at(attained, delta, lo, hi);
}

// The first position in values_ at or after `from` whose value exceeds `value` (values_[from - 1]
// ≤ value): a few steps, then galloping (strides doubling from `from`) and a binary search inside
// the last stride: a running job's cursor moves by ~25 distinct samples when it moves, so the
// probes stay near it instead of halving the whole rest of the table. The binary search is
// branch-free (the probes' outcomes are random, so branches on them mispredict half the time).
int64_t GittinsTable::upper_from(int64_t from, int64_t value) const {
  const auto n = static_cast<int64_t>(values_.size());
  for (int step = 0; step < 8; ++step, ++from) {
    if (from >= n || values_[from] > value) {
      return from;
    }
  }
  int64_t stride = 8;  // values_[from - 1] ≤ value
  while (from + stride < n && values_[from + stride] <= value) {
    from += stride + 1;
    stride *= 2;
  }
  // The answer lies in [from, last]; values_[last] > value unless last == n.
  const int64_t last = std::min(n, from + stride);
  const int64_t* base = values_.data() + from;
  int64_t len = last - from + 1;  // candidates from .. last
  while (len > 1) {
    const int64_t half = len / 2;
    base = base[half - 1] <= value ? base + half : base;
    len -= half;
  }
  return base - values_.data();
}

double GittinsTable::index(int64_t attained, int64_t delta, Cursor& c) {
  const int64_t cap = attained + delta;
  if (c.version == version_ && attained >= c.attained && cap >= c.cap && attained < c.lo_next &&
      cap < c.hi_next) {
    c.attained = attained;  // neither position moves: sorted_[lo − 1] ≤ attained < sorted_[lo], same for hi
    c.cap = cap;
    return index_from(attained, delta, c.lo, c.hi, c.spread);
  }
  if (c.version != version_ || attained < c.attained || cap < c.cap) {
    c = Cursor{version_, attained, cap, 0, 0};  // lo_next = hi_next = 0: both searched below
  }
  if (values_.empty()) {  // no refresh has merged yet: no sample
    c.attained = attained;
    c.cap = cap;
    c.lo_next = c.hi_next = std::numeric_limits<int64_t>::max();
    return index_from(attained, delta, 0, 0, 0);
  }
  if (attained >= c.lo_next) {
    c.at_lo = upper_from(c.at_lo, attained);
    c.lo = below_[c.at_lo];
    c.lo_next = value_or_max(c.at_lo);
  }
  if (cap >= c.hi_next) {
    c.at_hi = upper_from(c.at_hi, cap);
    c.hi = below_[c.at_hi];
    c.hi_next = value_or_max(c.at_hi);
    c.hi_sum = below_sum_[c.at_hi];
  }
  c.attained = attained;
  c.cap = cap;
  const auto n = static_cast<int64_t>(sorted_.size());
  c.spread = c.lo >= n ? 0 : c.hi_sum - below_sum_[c.at_lo];
  return index_from(attained, delta, c.lo, c.hi, c.spread);
}

int64_t GittinsTable::value_or_max(int64_t at) const {
  return at < static_cast<int64_t>(values_.size()) ? values_[at] : std::numeric_limits<int64_t>::max();
}

double GittinsTable::index_at(int64_t attained, int64_t delta, int64_t lo, int64_t hi) const {
  const auto n = static_cast<int64_t>(sorted_.size());
  return lo >= n ? 0 : index_from(attained, delta, lo, hi, prefix_[hi] - prefix_[lo]);
}

double GittinsTable::index_from(int64_t attained, int64_t delta, int64_t lo, int64_t hi, double spread) const {
  const auto n = static_cast<int64_t>(sorted_.size());
  if (lo >= n) {
    return 0;
  }
  const double finishing = static_cast<double>(hi - lo);
  const double service = spread - static_cast<double>(attained) * finishing +
                         static_cast<double>(delta) * static_cast<double>(n - hi);
  return service > 0 ? finishing / service : 0;
}

}  // namespace boreas::policy
