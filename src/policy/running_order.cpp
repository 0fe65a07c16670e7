// PriorityScheduler::RunningOrder: the last round's order of running jobs, re-keyed and settled by
// an insertion sort (linear when few pairs crossed; a full sort once too many have).

#include <algorithm>

#include "policy/priority_scheduler.h"

namespace boreas::policy {

// Insertion sort while the moves stay within a few per job; past that, std::sort the rest of the
// way (both end in the one order (key, job) defines).
void PriorityScheduler::RunningOrder::settle(std::span<Ranked> items) {
  size_t budget = 8 * items.size() + 64;
  for (size_t i = 1; i < items.size(); ++i) {
    if (!(items[i] < items[i - 1])) {
      continue;  // in place: most are, the keys move together
    }
    const Ranked item = items[i];
    size_t k = i;
    for (; k > 0 && item < items[k - 1]; --k) {
      items[k] = items[k - 1];
    }
    items[k] = item;
    const size_t moves = i - k;
    if (moves > budget) {
      std::sort(items.begin(), items.end());
      return;
    }
    budget -= moves;
  }
}

}  // namespace boreas::policy
