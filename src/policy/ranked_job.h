#pragma once
// A job's place in a priority round's order: its key and id, compared field by field.

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/ids.h"

namespace boreas::policy {

// Smaller sorts first; ties go to the lower job id (earlier arrival).
struct SortKey {
  double primary = 0;
  int64_t secondary = 0;
  int64_t tertiary = 0;
  auto operator<=>(const SortKey&) const = default;
};

// A job with its key, as the round ranks it, and its gang size (carried so that a round's GPU sums
// read no job spec; not part of the order).
struct RankedJob {
  SortKey key;
  JobId job;
  uint32_t gpus = 0;
  // (key, job) field by field: one pass, where `key != o.key` then `key < o.key` took two.
  bool operator<(const RankedJob& o) const {
    if (key.primary != o.key.primary) {
      return key.primary < o.key.primary;
    }
    if (key.secondary != o.key.secondary) {
      return key.secondary < o.key.secondary;
    }
    return key.tertiary != o.key.tertiary ? key.tertiary < o.key.tertiary : job < o.job;
  }
};

// Moves the `k` entries of `rest` that come first by `first` (a strict total order) to its front,
// in that order; the others stay behind them in some order (k ≤ rest.size()). One pass compares
// each entry with the k-th taken so far, mostly a predictable "no" when k is small against the
// rest: a partial selection that, in rounds of growing k, replaces a heap of all the entries when
// only the first few are read. The pass starts from the back, the last k taken first: entries in
// about the reverse order (a running order, read for its last-ranked bounds) then rarely displace one.
template <class T, class First>
void move_first_to_front(std::span<T> rest, size_t k, First first) {
  if (k == 0) {
    return;
  }
  const auto front = rest.begin() + static_cast<std::ptrdiff_t>(k);
  if (rest.size() >= 2 * k) {
    std::swap_ranges(rest.begin(), front, rest.end() - static_cast<std::ptrdiff_t>(k));
  }
  std::sort(rest.begin(), front, first);
  T* taken = rest.data();
  for (size_t i = rest.size(); i-- > k;) {
    if (first(rest[i], taken[k - 1])) {
      T entry = rest[i];
      rest[i] = taken[k - 1];
      size_t j = k - 1;
      for (; j > 0 && first(entry, taken[j - 1]); --j) {
        taken[j] = taken[j - 1];
      }
      taken[j] = entry;
    }
  }
}

}  // namespace boreas::policy
