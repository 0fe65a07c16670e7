#pragma once
// A set of small integer ids (job ids), ordered, as bits: a 64-ary tree of words whose level k+1
// marks the non-empty words of level k, so insert and erase touch one word per level and the next
// id from any point is found in a few words per level, whatever lies between. The quota audit keeps
// each queue's pending gangs in one, and ClusterState its pending jobs (OrderedIdSet, typed ids):
// std::set's node per entry was their cost per job move. Ids beyond the current capacity grow it.
// Iteration is in id order and reads the set live at each step (an iterator holds its id only), so
// an insert or erase during a walk is seen by the steps after it, as with std::set; the largest
// uint32_t is no id (it marks the end).

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <vector>

namespace boreas {

class OrderedIds {
 public:
  OrderedIds() = default;
  explicit OrderedIds(uint32_t capacity) { grow(capacity); }

  bool empty() const { return count_ == 0; }
  uint32_t size() const { return count_; }
  bool contains(uint32_t id) const {
    return !level_.empty() && (id >> 6) < level_[0].size() && ((level_[0][id >> 6] >> (id & 63)) & 1) != 0;
  }

  void insert(uint32_t id) {
    if (contains(id)) {
      return;
    }
    if (level_.empty() || (id >> 6) >= level_[0].size()) {
      grow(id + 1);
    }
    ++count_;
    uint64_t pos = id;
    for (auto& words : level_) {  // set the bit; a word that was empty marks itself one level up
      const bool was_empty = words[pos >> 6] == 0;
      words[pos >> 6] |= uint64_t{1} << (pos & 63);
      if (!was_empty) {
        return;
      }
      pos >>= 6;
    }
  }

  // Whether the id was there.
  bool erase(uint32_t id) {
    if (!contains(id)) {
      return false;
    }
    --count_;
    uint64_t pos = id;
    for (auto& words : level_) {  // clear the bit; a word left empty clears its mark one level up
      words[pos >> 6] &= ~(uint64_t{1} << (pos & 63));
      if (words[pos >> 6] != 0) {
        break;
      }
      pos >>= 6;
    }
    return true;
  }

  static constexpr uint32_t kEnd = UINT32_MAX;

  // The smallest id ≥ from, if any.
  std::optional<uint32_t> next_from(uint64_t from) const {
    const uint32_t id = next_or_end(from);
    return id == kEnd ? std::nullopt : std::optional(id);
  }
  std::optional<uint32_t> first() const { return next_from(0); }
  // The smallest id > id, if any.
  std::optional<uint32_t> next_after(uint32_t id) const { return next_from(uint64_t{id} + 1); }

  // The smallest id ≥ from, or kEnd.
  uint32_t next_or_end(uint64_t from) const {
    size_t level = 0;
    uint64_t pos = from;
    for (;; ++level) {  // up: the first set bit at or after pos in this level's words
      if (level == level_.size() || (pos >> 6) >= level_[level].size()) {
        return kEnd;
      }
      const uint64_t bits = level_[level][pos >> 6] & (~uint64_t{0} << (pos & 63));
      if (bits != 0) {
        pos = (pos & ~uint64_t{63}) + static_cast<uint64_t>(std::countr_zero(bits));
        break;
      }
      pos = (pos >> 6) + 1;  // the next word, as a bit of the level above
    }
    for (; level > 0; --level) {  // down: the lowest set bit of each marked word
      pos = (pos << 6) + static_cast<uint64_t>(std::countr_zero(level_[level - 1][pos]));
    }
    return static_cast<uint32_t>(pos);
  }

 private:
  // Capacity for ids < n (at least twice the old one): the words are rebuilt level by level.
  void grow(uint64_t n) {
    const uint64_t old = level_.empty() ? 0 : level_[0].size() * 64;
    const uint64_t bits = std::max<uint64_t>({n, old * 2, 64});
    std::vector<uint64_t> ids = level_.empty() ? std::vector<uint64_t>() : std::move(level_[0]);
    ids.resize((bits + 63) / 64, 0);
    level_.clear();
    level_.push_back(std::move(ids));
    while (level_.back().size() > 1) {
      const std::vector<uint64_t>& below = level_.back();
      std::vector<uint64_t> marks((below.size() + 63) / 64, 0);
      for (size_t w = 0; w < below.size(); ++w) {
        marks[w >> 6] |= below[w] != 0 ? uint64_t{1} << (w & 63) : 0;
      }
      level_.push_back(std::move(marks));
    }
  }

  std::vector<std::vector<uint64_t>> level_;  // level_[0]: one bit per id; the last has one word
  uint32_t count_ = 0;
};

// OrderedIds of typed ids (core/ids.h: JobId...) with the members a std::set<IdT> walk uses: a
// forward iterator in id order, size, empty, count/contains, insert, erase.
template <typename IdT>
class OrderedIdSet {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = IdT;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = IdT;

    iterator() = default;
    iterator(const OrderedIds* ids, uint32_t id) : ids_(ids), id_(id) {}
    IdT operator*() const { return IdT(id_); }
    struct Arrow {  // it->value(): the id lives in the proxy while the expression does
      IdT id;
      const IdT* operator->() const { return &id; }
    };
    Arrow operator->() const { return Arrow{IdT(id_)}; }
    iterator& operator++() {
      id_ = ids_->next_or_end(uint64_t{id_} + 1);
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const iterator& other) const { return id_ == other.id_; }

   private:
    const OrderedIds* ids_ = nullptr;
    uint32_t id_ = OrderedIds::kEnd;
  };
  using const_iterator = iterator;
  using value_type = IdT;

  OrderedIdSet() = default;
  explicit OrderedIdSet(uint32_t capacity) : ids_(capacity) {}

  iterator begin() const { return iterator(&ids_, ids_.next_or_end(0)); }
  iterator end() const { return iterator(&ids_, OrderedIds::kEnd); }
  bool empty() const { return ids_.empty(); }
  size_t size() const { return ids_.size(); }
  bool contains(IdT id) const { return ids_.contains(id.value()); }
  size_t count(IdT id) const { return contains(id) ? 1 : 0; }
  void insert(IdT id) { ids_.insert(id.value()); }
  size_t erase(IdT id) { return ids_.erase(id.value()) ? 1 : 0; }  // how many (0 or 1), as std::set's

 private:
  OrderedIds ids_;
};

}  // namespace boreas
