#include "server/api/token_cache.h"

namespace boreas::server {

std::optional<Principal> TokenCache::authenticate(const std::string& token, int64_t now_us) {
  auto parts = split_token(token);
  if (!parts) {
    return std::nullopt;
  }
  // Read before the store: a row read under an older generation is never kept (see keep()).
  const uint64_t generation = store_.tokens_generation();
  auto record = cached(parts->first, generation);
  if (!record) {
    record = read_token(store_, parts->first);
    if (!record) {
      return std::nullopt;  // unknown ids are not kept: the cache holds existing tokens only
    }
    keep(parts->first, *record, generation);
  }
  return check_token(*record, parts->second, now_us);
}

std::optional<TokenRecord> TokenCache::cached(const std::string& id, uint64_t generation) {
  std::lock_guard lock(mu_);
  if (generation != generation_) {
    records_.clear();
    generation_ = generation;
    return std::nullopt;
  }
  auto it = records_.find(id);
  return it == records_.end() ? std::nullopt : std::optional(it->second);
}

void TokenCache::keep(const std::string& id, const TokenRecord& record, uint64_t generation) {
  std::lock_guard lock(mu_);
  if (generation == generation_) {
    records_.emplace(id, record);
  }
}

void TokenCache::clear() {
  std::lock_guard lock(mu_);
  records_.clear();
}

size_t TokenCache::size() const {
  std::lock_guard lock(mu_);
  return records_.size();
}

}  // namespace boreas::server
