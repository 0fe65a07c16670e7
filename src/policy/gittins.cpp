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
// instead of halving the whole rest of the table. The binary search is branch-free (the probes'
// outcomes are random, so branches on them mispredict half the time).
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
  // The answer lies in [from, last]; sorted_[last] > value unless last == n.
  const int64_t last = std::min(n, from + stride);
  const int64_t* base = sorted_.data() + from;
  int64_t len = last - from + 1;  // candidates from .. last
  while (len > 1) {
    const int64_t half = len / 2;
    base = base[half - 1] <= value ? base + half : base;
    len -= half;
  }
  return base - sorted_.data();
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
  if (attained >= c.lo_next) {
    c.lo = upper_from(c.lo, attained);
    c.lo_next = sample_or_max(c.lo);
  }
  if (cap >= c.hi_next) {
    c.hi = upper_from(c.hi, cap);
    c.hi_next = sample_or_max(c.hi);
    c.hi_sum = prefix_.empty() ? 0 : prefix_[c.hi];  // empty until the first refresh that merges
  }
  c.attained = attained;
  c.cap = cap;
  const auto n = static_cast<int64_t>(sorted_.size());
  c.spread = c.lo >= n ? 0 : c.hi_sum - prefix_[c.lo];
  return index_from(attained, delta, c.lo, c.hi, c.spread);
}

int64_t GittinsTable::sample_or_max(int64_t at) const {
  return at < static_cast<int64_t>(sorted_.size()) ? sorted_[at] : std::numeric_limits<int64_t>::max();
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
