#include "policy/gittins.h"

#include <algorithm>

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
  return true;
}

double GittinsTable::index(int64_t attained, int64_t delta) {
  const auto lo = std::upper_bound(sorted_.begin(), sorted_.end(), attained) - sorted_.begin();
  const auto hi = std::upper_bound(sorted_.begin(), sorted_.end(), attained + delta) - sorted_.begin();
  return index_at(attained, delta, lo, hi);
}

// The first position at or after `from` whose sample exceeds `value` (sorted_[from - 1] ≤ value):
// a few steps, then galloping (strides doubling from `from`) and a binary search inside the last
// stride: a running job's cursor moves by ~100 samples when it moves, so the probes stay near it
// instead of halving the whole rest of the table.
int64_t GittinsTable::upper_from(int64_t from, int64_t value) const {
  const auto n = static_cast<int64_t>(sorted_.size());
  for (int step = 0; step < 8; ++step, ++from) {
    if (from >= n || sorted_[from] > value) {
      return from;
    }
  }
  int64_t stride = 8;  // sorted_[from - 1] ≤ value
  while (from + stride < n && sorted_[from + stride] <= value) {
    from += stride + 1;
    stride *= 2;
  }
  const int64_t last = std::min(n, from + stride + 1);
  return std::upper_bound(sorted_.begin() + from, sorted_.begin() + last, value) - sorted_.begin();
}

double GittinsTable::index(int64_t attained, int64_t delta, Cursor& c) {
  const int64_t cap = attained + delta;
  if (c.version != version_ || attained < c.attained || cap < c.cap) {
    c = Cursor{version_, attained, cap, 0, 0};
  }
  c.lo = upper_from(c.lo, attained);
  c.hi = c.cap == cap && c.hi > 0 ? c.hi : upper_from(c.hi, cap);
  c.attained = attained;
  c.cap = cap;
  return index_at(attained, delta, c.lo, c.hi);
}

double GittinsTable::index_at(int64_t attained, int64_t delta, int64_t lo, int64_t hi) const {
  const auto n = static_cast<int64_t>(sorted_.size());
  if (lo >= n) {
    return 0;
  }
  const double finishing = static_cast<double>(hi - lo);
  const double service = (prefix_[hi] - prefix_[lo]) - static_cast<double>(attained) * finishing +
                         static_cast<double>(delta) * static_cast<double>(n - hi);
  return service > 0 ? finishing / service : 0;
}

}  // namespace boreas::policy
