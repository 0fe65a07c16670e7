#pragma once
// The `tokens` table (migrations 2 and 7): one row per bearer token, as stored. Only the id, a
// salt and the salted hash of the secret are kept; what a row means (roles, queue lists, checking
// a presented secret) is server/api/tokens.h's business.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "server/store/store.h"

namespace boreas::server {

struct TokenRow {
  std::string id;
  std::string salt;
  std::string hash;    // hex SHA-256(salt || secret)
  std::string name;    // unique, also after revocation
  std::string role;    // "admin", "user" or "viewer"
  std::string queues;  // comma-separated
  std::string unix_user;
  int64_t created_us = 0;
  int64_t expires_us = 0;  // 0 = never
  int64_t revoked_us = 0;  // 0 = not revoked
};

// Names of the tokens whose name starts with PREFIX (for generated names such as `user-3`).
Result<std::vector<std::string>> token_names_starting(Store& store, const std::string& prefix);
// Inserts ROW unless its name is taken, in one statement (two `token create` cannot both win);
// false when the name was taken. Bumps the store's token generation either way.
Result<bool> insert_token_row(Store& store, const TokenRow& row);
// The row of token ID; nullopt when there is none.
Result<std::optional<TokenRow>> read_token_row(Store& store, const std::string& id);
// Every row, oldest first.
Result<std::vector<TokenRow>> read_token_rows(Store& store);
// Marks the live token NAME revoked at now_us; false when there is no live token of that name.
Result<bool> revoke_token_row(Store& store, const std::string& name, int64_t now_us);

}  // namespace boreas::server
