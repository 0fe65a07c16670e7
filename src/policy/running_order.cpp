// PriorityScheduler::RunningOrder: the last round's order of running jobs, re-keyed and settled by
// an insertion sort for the items near their place and a merge for the few far from it.

#include <algorithm>

#include "policy/priority_scheduler.h"

namespace boreas::policy {

// Insertion sort for the items that land near their place; an item that would move back past more
// than kReach others (a job that was skipped, or ranked in another part, in the rounds before) is
// put aside, and the sorted ones aside are merged in at the end from the back. Both end in the one
// order (key, job) defines; the cost is O(n + moves within reach + aside × log aside).
void PriorityScheduler::RunningOrder::settle(std::span<Ranked> items) {
  constexpr size_t kReach = 16;
  aside_.clear();
  size_t kept = 0;  // items[0, kept) are sorted
  for (const Ranked& at : items) {
    const Ranked item = at;
    if (kept == 0 || !(item < items[kept - 1])) {
      items[kept++] = item;  // in place: most are, the keys move together
      continue;
    }
    if (kept > kReach && item < items[kept - 1 - kReach]) {
      aside_.push_back(item);
      continue;
    }
    size_t k = kept;
    for (; k > 0 && item < items[k - 1]; --k) {
      items[k] = items[k - 1];
    }
    items[k] = item;
    ++kept;
  }
  if (aside_.empty()) {
    return;
  }
  std::sort(aside_.begin(), aside_.end());
  size_t out = items.size();
  size_t a = aside_.size();
  while (a > 0) {  // the largest of the two tails goes last; items[0, kept) stay where they are once aside is in
    if (kept > 0 && aside_[a - 1] < items[kept - 1]) {
      items[--out] = items[--kept];
    } else {
      items[--out] = aside_[--a];
    }
  }
}

}  // namespace boreas::policy
