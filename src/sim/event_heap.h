#pragma once
// The engine's event queue: a 4-ary min-heap. Events are ordered by (time, sequence), a total
// order, so any correct priority queue pops the same sequence as std::priority_queue did; four
// children per node make the heap half as deep, and a node's children (4 × 32-byte events) share
// one or two cache lines instead of lying apart, so a pop misses the cache less.

#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

namespace boreas::sim {

// `Before(a, b)`: a pops first. It must be a strict total order for pops to be exact.
template <typename T, typename Before>
class EventHeap {
 public:
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  const T& top() const { return items_.front(); }

  void push(T item) {
    size_t i = items_.size();
    items_.push_back(std::move(item));
    T moving = std::move(items_[i]);
    while (i > 0) {
      const size_t parent = (i - 1) / kArity;
      if (!before_(moving, items_[parent])) {
        break;
      }
      items_[i] = std::move(items_[parent]);
      i = parent;
    }
    items_[i] = std::move(moving);
  }

  void pop() {
    T last = std::move(items_.back());
    items_.pop_back();
    if (items_.empty()) {
      return;
    }
    sift_down(0, std::move(last));
  }

  // Hands every item `drop` selects to `take` (in no particular order) and rebuilds the heap from
  // the rest: later pops are those of a heap that never held the dropped items.
  template <typename Drop, typename Take>
  void extract_if(Drop&& drop, Take&& take) {
    size_t kept = 0;
    for (size_t i = 0; i < items_.size(); ++i) {
      if (drop(std::as_const(items_[i]))) {
        take(std::move(items_[i]));
      } else {
        if (kept != i) {
          items_[kept] = std::move(items_[i]);
        }
        ++kept;
      }
    }
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(kept), items_.end());
    for (size_t i = items_.size() / kArity + 1; i-- > 0;) {  // every node with a child, bottom up
      if (i < items_.size()) {
        sift_down(i, std::move(items_[i]));
      }
    }
  }

 private:
  static constexpr size_t kArity = 4;

  // Puts `moving` in node i's place, moving the smaller child up until it comes before them all.
  void sift_down(size_t i, T moving) {
    const size_t n = items_.size();
    for (;;) {
      const size_t first = i * kArity + 1;
      if (first >= n) {
        break;
      }
      const size_t end = first + kArity < n ? first + kArity : n;
      size_t best = first;
      for (size_t c = first + 1; c < end; ++c) {
        if (before_(items_[c], items_[best])) {
          best = c;
        }
      }
      if (!before_(items_[best], moving)) {
        break;
      }
      items_[i] = std::move(items_[best]);
      i = best;
    }
    items_[i] = std::move(moving);
  }

  std::vector<T> items_;
  [[no_unique_address]] Before before_;
};

}  // namespace boreas::sim
