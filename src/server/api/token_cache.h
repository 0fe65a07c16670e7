#pragma once
// The daemon's tokens in memory, so a request does not read the store to authenticate. Revocation
// stays immediate: the cache is dropped whenever the store's token generation moves (every
// `boreas token create|revoke`, in any process, bumps it after its commit) and on SIGHUP; a hit
// still checks the presented secret against the stored salted hash and the expiry.

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "server/api/tokens.h"
#include "server/store/store.h"

namespace boreas::server {

class TokenCache {
 public:
  explicit TokenCache(Store& store) : store_(store) {}

  // As authenticate(store, token, now_us).
  std::optional<Principal> authenticate(const std::string& token, int64_t now_us);
  void clear();  // SIGHUP
  size_t size() const;

 private:
  std::optional<TokenRecord> cached(const std::string& id, uint64_t generation);
  void keep(const std::string& id, const TokenRecord& record, uint64_t generation);

  Store& store_;
  mutable std::mutex mu_;
  uint64_t generation_ = 0;                               // guarded by mu_
  std::unordered_map<std::string, TokenRecord> records_;  // by token id; guarded by mu_
};

}  // namespace boreas::server
