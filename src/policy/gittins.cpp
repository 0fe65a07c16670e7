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

double GittinsTable::service(int64_t attained, int64_t delta, int64_t lo, int64_t hi, double spread) const {
  const auto n = static_cast<int64_t>(sorted_.size());
  return spread - static_cast<double>(attained) * static_cast<double>(hi - lo) +
         static_cast<double>(delta) * static_cast<double>(n - hi);
}

double GittinsTable::index_from(int64_t attained, int64_t delta, int64_t lo, int64_t hi, double spread) const {
  const auto n = static_cast<int64_t>(sorted_.size());
  if (lo >= n) {
    return 0;
  }
  const double finishing = static_cast<double>(hi - lo);
  const double left = service(attained, delta, lo, hi, spread);
  return left > 0 ? finishing / left : 0;
}

// Segment k holds the attained services a with values_[k − 1] ≤ a < values_[k] (a ≥ 0 for k = 0),
// clipped below the ceiling; there lo, hi and the spread are fixed, Δ = ceiling − a falls as a
// rises, so the service falls and the index rises while the service is above 0.
void GittinsTable::fill_floors(CapFloors& out) const {
  const auto m = static_cast<int64_t>(values_.size());
  const auto n = static_cast<int64_t>(sorted_.size());
  const int64_t ceiling = out.ceiling;
  const bool capped = ceiling >= 0;
  const int64_t end = capped ? ceiling : std::numeric_limits<int64_t>::max();
  const int64_t at_hi = capped ? upper_from(0, ceiling) : m;
  out.floors.assign(static_cast<size_t>(m + 1), -1.0);
  out.last = capped ? std::lower_bound(values_.begin(), values_.end(), ceiling) - values_.begin() : m;
  if (capped || m == 0 || values_.back() < kUncapped) {  // else the last queue's cap would not pass every sample
    auto delta = [&](int64_t a) { return capped ? ceiling - a : kUncapped; };
    for (int64_t k = 0; k <= m; ++k) {
      const int64_t first = k == 0 ? 0 : values_[k - 1];
      const int64_t last = std::min(value_or_max(k), end) - 1;
      const int64_t lo = below_[k];
      if (first > last) {
        continue;  // empty below the ceiling
      }
      if (lo >= n) {
        out.floors[k] = 0;  // no sample above: the index is 0
        continue;
      }
      const int64_t hi = below_[at_hi];
      const double spread = below_sum_[at_hi] - below_sum_[k];
      if (service(last, delta(last), lo, hi, spread) > 0) {
        out.floors[k] = index_from(first, delta(first), lo, hi, spread);
      }
    }
  }
  out.block_low.assign(static_cast<size_t>(m / kBlock + 1), 0.0);
  for (int64_t b = 0; b * kBlock <= m; ++b) {
    const auto from = out.floors.begin() + b * kBlock;
    out.block_low[b] = *std::min_element(from, out.floors.begin() + std::min(m + 1, (b + 1) * kBlock));
  }
}

const GittinsTable::CapFloors& GittinsTable::floors(int64_t ceiling) {
  if (floors_version_ != version_) {
    floors_.clear();
    floors_version_ = version_;
  }
  for (const CapFloors& f : floors_) {
    if (f.ceiling == ceiling) {
      return f;
    }
  }
  floors_.push_back(CapFloors{ceiling, {}, {}, 0});
  fill_floors(floors_.back());
  return floors_.back();
}

// The first segment after `from` (up to f.last + 1) whose floor is below `bar`; `low` takes the
// least floor on the way. Whole blocks at or above the bar are passed by their least floor. The
// least is kept in a local (`low` may alias the floors, so each step would store and reload it).
int64_t GittinsTable::first_below(const CapFloors& f, int64_t from, double bar, double& low) {
  const double* floors = f.floors.data();
  const double* block_low = f.block_low.data();
  const int64_t last = f.last;
  double least = low;
  int64_t k = from + 1;
  for (; k <= last && k % kBlock != 0; ++k) {
    if (floors[k] < bar) {
      low = least;
      return k;
    }
    least = std::min(least, floors[k]);
  }
  for (; k + kBlock - 1 <= last && block_low[k / kBlock] >= bar; k += kBlock) {
    least = std::min(least, block_low[k / kBlock]);
  }
  for (; k <= last && floors[k] >= bar; ++k) {
    least = std::min(least, floors[k]);
  }
  low = least;
  return k;
}

std::optional<GittinsTable::Floor> GittinsTable::floor_from(const Cursor& c, int64_t ceiling, double bar) {
  if (c.version != version_ || values_.empty()) {
    return std::nullopt;
  }
  const CapFloors& f = floors(ceiling);
  if (f.floors[c.at_lo] < 0) {
    return std::nullopt;
  }
  // The cursor's own segment from the attained service read last: the index there, not below.
  const int64_t delta = ceiling >= 0 ? std::max<int64_t>(ceiling - c.attained, 1) : kUncapped;
  Floor out{index_from(c.attained, delta, c.lo, c.hi, c.spread), 0};
  if (out.index < bar) {
    return std::nullopt;
  }
  const int64_t next = first_below(f, c.at_lo, bar, out.index);
  const int64_t end = ceiling >= 0 ? ceiling : std::numeric_limits<int64_t>::max();
  out.until = std::min(value_or_max(next - 1), end);
  return out;
}

}  // namespace boreas::policy
