#pragma once
// A job's place in a priority round's order: its key and id, compared field by field.

#include <compare>
#include <cstdint>

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

}  // namespace boreas::policy
