#pragma once
// A ranking group's sorted keys (boreas_rank.cpp) with room kept before the first one. The jobs
// that leave a group are mostly at its head (they start), so dropping entries moves whichever side
// is shorter: the entries after the first key dropped (down) or those before the last (up, the
// head moving after them). Merging keys in likewise fills the room before the head when fewer
// entries move that way. The entries read the same as one sorted array either way.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace boreas::policy {

using RankKey = std::pair<int64_t, uint32_t>;  // (attained GPU-µs on entry, job id)

class RankKeys {
 public:
  size_t size() const { return keys_.size() - head_; }
  bool empty() const { return keys_.size() == head_; }
  const RankKey& operator[](size_t i) const { return keys_[head_ + i]; }
  const RankKey& front() const { return keys_[head_]; }
  const RankKey* begin() const { return keys_.data() + head_; }
  const RankKey* end() const { return keys_.data() + keys_.size(); }
  void clear() {
    keys_.clear();
    head_ = 0;
  }
  // For tests: the room before the head (entries dropped there and not filled again).
  size_t room() const { return head_; }

  // Drops the keys of `gone` (sorted) that the array holds and widens [lo, hi] to them.
  void drop(std::span<const RankKey> gone, RankKey& lo, RankKey& hi) {
    size_t first = SIZE_MAX;
    size_t last = 0;
    size_t count = 0;
    const RankKey* at = begin();
    for (const RankKey& key : gone) {
      const RankKey* it = std::lower_bound(at, end(), key);
      if (it == end() || *it != key) {
        continue;
      }
      const auto p = static_cast<size_t>(it - begin());
      first = std::min(first, p);
      last = p;
      count += 1;
      at = it + 1;
      lo = std::min(lo, key);
      hi = std::max(hi, key);
    }
    if (count == 0) {
      return;
    }
    if (size() - last - 1 <= first) {
      drop_moving_down(gone, first);
    } else {
      drop_moving_up(gone, last, count);
    }
  }

  // Merges the sorted keys of `added` in, each once (those the array holds already are dropped
  // from `added` first); `added` is left empty.
  void merge(std::vector<RankKey>& added) {
    added.erase(std::unique(added.begin(), added.end()), added.end());
    std::erase_if(added, [&](const RankKey& key) { return std::binary_search(begin(), end(), key); });
    if (added.empty()) {
      return;
    }
    const size_t moved_down = static_cast<size_t>(end() - std::lower_bound(begin(), end(), added.front()));
    const size_t moved_up = static_cast<size_t>(std::upper_bound(begin(), end(), added.back()) - begin());
    if (head_ >= added.size() && moved_up < moved_down) {
      merge_from_front(added);
    } else {
      merge_from_back(added);
    }
    added.clear();
  }

 private:
  // The entries after the first key dropped move down over the dropped ones.
  void drop_moving_down(std::span<const RankKey> gone, size_t first) {
    auto out = keys_.begin() + static_cast<std::ptrdiff_t>(head_ + first);
    auto at = out;
    for (const RankKey& key : gone) {
      const auto it = std::lower_bound(at, keys_.end(), key);
      if (it == keys_.end() || *it != key) {
        continue;
      }
      out = out == at ? it : std::move(at, it, out);
      at = it + 1;
    }
    out = out == at ? keys_.end() : std::move(at, keys_.end(), out);
    keys_.erase(out, keys_.end());
  }

  // The entries before the last key dropped move up over the dropped ones; the head follows.
  void drop_moving_up(std::span<const RankKey> gone, size_t last, size_t count) {
    const auto head = keys_.begin() + static_cast<std::ptrdiff_t>(head_);
    auto out = head + static_cast<std::ptrdiff_t>(last + 1);  // one past where the next kept entry goes
    auto at = out;                                          // one past the entries not yet moved
    for (auto key = gone.rbegin(); key != gone.rend(); ++key) {
      const auto it = std::lower_bound(head, at, *key);
      if (it == at || *it != *key) {
        continue;
      }
      out = std::move_backward(it + 1, at, out);
      at = it;
    }
    std::move_backward(head, at, out);
    head_ += count;
  }

  // Merges from the back: the array grows at its end; the entries after the first new key move.
  void merge_from_back(const std::vector<RankKey>& added) {
    if (head_ > 0 && keys_.size() + added.size() > keys_.capacity()) {
      keys_.erase(keys_.begin(), keys_.begin() + static_cast<std::ptrdiff_t>(head_));  // reuse the room before growing
      head_ = 0;
    }
    size_t a = keys_.size();
    size_t b = added.size();
    keys_.resize(a + b);
    for (size_t out = a + b; b > 0; --out) {
      const bool from_keys = a > head_ && added[b - 1] < keys_[a - 1];
      keys_[out - 1] = from_keys ? keys_[--a] : added[--b];
    }
  }

  // Merges from the front into the room before the head: the entries before the last new key move.
  void merge_from_front(const std::vector<RankKey>& added) {
    const size_t n = keys_.size();
    size_t a = head_;
    size_t b = 0;
    head_ -= added.size();
    for (size_t out = head_; b < added.size(); ++out) {
      const bool from_keys = a < n && keys_[a] < added[b];
      keys_[out] = from_keys ? keys_[a++] : added[b++];
    }
  }

  std::vector<RankKey> keys_;
  size_t head_ = 0;  // entries before it are room, not keys
};

}  // namespace boreas::policy
