#pragma once
// A prefix KV cache keyed by block hash (vLLM's automatic prefix caching, Mooncake's store): LRU
// over blocks with a capacity in tokens. A request reuses the longest run of its leading blocks
// that are cached; every block it touches becomes most recently used.

#include <cstdint>
#include <limits>
#include <list>
#include <span>
#include <unordered_map>

namespace boreas::serving {

class PrefixCache {
 public:
  static constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

  // capacity_tokens / block_tokens blocks are kept; kUnbounded keeps every block.
  PrefixCache(int64_t capacity_tokens, int32_t block_tokens);

  // Looks the request's blocks up and inserts the missing ones. Returns how many leading blocks
  // were already cached (the reusable prefix).
  size_t access(std::span<const uint64_t> blocks);
  // How many leading blocks are cached, without changing the cache (the prefix-aware router).
  size_t peek(std::span<const uint64_t> blocks) const;

  size_t size_blocks() const { return index_.size(); }
  int64_t capacity_blocks() const { return capacity_blocks_; }

 private:
  void touch(uint64_t hash);
  void evict_to_capacity();

  int64_t capacity_blocks_;
  std::list<uint64_t> lru_;  // front = most recently used
  std::unordered_map<uint64_t, std::list<uint64_t>::iterator> index_;
};

// Hit ratio counters in tokens: the cached prefix's tokens over all prompt tokens.
struct PrefixStats {
  int64_t hit_tokens = 0;
  int64_t prompt_tokens = 0;
  double ratio() const { return prompt_tokens == 0 ? 0.0 : static_cast<double>(hit_tokens) / static_cast<double>(prompt_tokens); }
};

// Cached tokens of a request whose first `hit_blocks` of `block_count` blocks are cached: whole
// blocks, the last block holding the remainder of the prompt.
int64_t hit_tokens(size_t hit_blocks, size_t block_count, int32_t input_tokens, int32_t block_tokens);

}  // namespace boreas::serving
