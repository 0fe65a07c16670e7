// Property: the engine's 4-ary event heap (sim/event_heap.h) pops what std::priority_queue pops,
// in the same order, for any interleaving of pushes and pops over a total order (time, sequence),
// with many events at one time (an instant's batch) and times pushed out of order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "sim/event_heap.h"

namespace boreas {
namespace {

using Item = std::pair<int64_t, uint64_t>;  // (time, sequence)

struct ItemBefore {
  bool operator()(const Item& a, const Item& b) const { return a < b; }
};

using Heap = sim::EventHeap<Item, ItemBefore>;
using Reference = std::priority_queue<Item, std::vector<Item>, std::greater<>>;

void push_both(Heap& heap, Reference& reference, const Item& item) {
  heap.push(item);
  reference.push(item);
}

// Pops one from each: the heap must give the reference's top; `now` becomes its time.
void pop_both(Heap& heap, Reference& reference, int64_t& now) {
  ASSERT_EQ(heap.top(), reference.top());
  now = heap.top().first;
  heap.pop();
  reference.pop();
}

// Pops both to the end: the heap must give the reference's sequence.
void expect_same_pops(Heap& heap, Reference& reference) {
  int64_t now = 0;
  while (!reference.empty() && !::testing::Test::HasFatalFailure()) {
    pop_both(heap, reference, now);
  }
  EXPECT_TRUE(heap.empty());
}

TEST(EventHeapProperty, PopsTheSameSequenceAsAPriorityQueue) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    Heap heap;
    Reference reference;
    uint64_t seq = 0;
    int64_t now = 0;
    const int steps = 1 + static_cast<int>(rng() % 400);
    const int64_t spread = 1 + static_cast<int64_t>(rng() % 50);  // small: many ties in time
    for (int s = 0; s < steps; ++s) {
      if (rng() % 3 != 0 || reference.empty()) {
        push_both(heap, reference, {now + static_cast<int64_t>(rng() % spread), seq++});
      } else {
        pop_both(heap, reference, now);
        ASSERT_FALSE(HasFatalFailure());
      }
      ASSERT_EQ(heap.size(), reference.size());
    }
    expect_same_pops(heap, reference);
  }
}

// extract_if (the engine's compaction of stale finishes) hands over exactly the items selected, and
// the heap then pops what a priority queue of the other items pops, through more pushes and pops.
TEST(EventHeapProperty, ExtractIfLeavesAHeapOfTheRest) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    Heap heap;
    Reference reference;
    uint64_t seq = 0;
    int64_t now = 0;
    const int64_t spread = 1 + static_cast<int64_t>(rng() % 50);
    const uint64_t every = 2 + rng() % 4;  // drop the items whose sequence is a multiple of this
    for (int s = 0; s < 400; ++s) {
      const uint64_t op = rng() % 20;
      if (op == 0) {
        std::vector<Item> taken;
        heap.extract_if([&](const Item& i) { return i.second % every == 0; },
                        [&](Item&& i) { taken.push_back(i); });
        std::vector<Item> kept, dropped;
        for (; !reference.empty(); reference.pop()) {
          (reference.top().second % every == 0 ? dropped : kept).push_back(reference.top());
        }
        std::sort(taken.begin(), taken.end());
        ASSERT_EQ(taken, dropped);  // reference pops ascending
        for (const Item& i : kept) {
          reference.push(i);
        }
      } else if (op < 13 || reference.empty()) {
        push_both(heap, reference, {now + static_cast<int64_t>(rng() % spread), seq++});
      } else {
        pop_both(heap, reference, now);
        ASSERT_FALSE(HasFatalFailure());
      }
      ASSERT_EQ(heap.size(), reference.size());
    }
    expect_same_pops(heap, reference);
  }
}

}  // namespace
}  // namespace boreas
