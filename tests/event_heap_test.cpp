// Property: the engine's 4-ary event heap (sim/event_heap.h) pops what std::priority_queue pops,
// in the same order, for any interleaving of pushes and pops over a total order (time, sequence),
// with many events at one time (an instant's batch) and times pushed out of order.
#include <gtest/gtest.h>

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

TEST(EventHeapProperty, PopsTheSameSequenceAsAPriorityQueue) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    sim::EventHeap<Item, ItemBefore> heap;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> reference;
    uint64_t seq = 0;
    int64_t now = 0;
    const int steps = 1 + static_cast<int>(rng() % 400);
    const int64_t spread = 1 + static_cast<int64_t>(rng() % 50);  // small: many ties in time
    for (int s = 0; s < steps; ++s) {
      if (rng() % 3 != 0 || reference.empty()) {
        const Item item{now + static_cast<int64_t>(rng() % spread), seq++};
        heap.push(item);
        reference.push(item);
      } else {
        ASSERT_EQ(heap.top(), reference.top());
        now = heap.top().first;
        heap.pop();
        reference.pop();
      }
      ASSERT_EQ(heap.size(), reference.size());
    }
    while (!reference.empty()) {
      ASSERT_EQ(heap.top(), reference.top());
      heap.pop();
      reference.pop();
    }
    EXPECT_TRUE(heap.empty());
  }
}

}  // namespace
}  // namespace boreas
