#include "serving/prefix_cache.h"

#include <algorithm>

namespace boreas::serving {

PrefixCache::PrefixCache(int64_t capacity_tokens, int32_t block_tokens)
    : capacity_blocks_(capacity_tokens == kUnbounded || block_tokens <= 0 ? kUnbounded
                                                                          : capacity_tokens / block_tokens) {}

size_t PrefixCache::access(std::span<const uint64_t> blocks) {
  size_t hits = 0;
  bool prefix = true;
  for (const uint64_t h : blocks) {
    const bool cached = index_.contains(h);
    prefix = prefix && cached;
    hits += prefix ? 1 : 0;
    touch(h);
  }
  evict_to_capacity();
  return hits;
}

size_t PrefixCache::peek(std::span<const uint64_t> blocks) const {
  size_t hits = 0;
  while (hits < blocks.size() && index_.contains(blocks[hits])) {
    ++hits;
  }
  return hits;
}

void PrefixCache::touch(uint64_t hash) {
  const auto it = index_.find(hash);
  if (it != index_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  lru_.push_front(hash);
  index_.emplace(hash, lru_.begin());
}

void PrefixCache::evict_to_capacity() {
  while (static_cast<int64_t>(index_.size()) > capacity_blocks_) {
    index_.erase(lru_.back());
    lru_.pop_back();
  }
}

int64_t hit_tokens(size_t hit_blocks, size_t block_count, int32_t input_tokens, int32_t block_tokens) {
  if (hit_blocks == 0) {
    return 0;
  }
  if (hit_blocks < block_count) {
    return static_cast<int64_t>(hit_blocks) * block_tokens;
  }
  return std::min<int64_t>(input_tokens, static_cast<int64_t>(hit_blocks) * block_tokens);
}

}  // namespace boreas::serving
