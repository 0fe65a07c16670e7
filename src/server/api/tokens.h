#pragma once
// Bearer tokens: "brs_<id>_<secret>". Only the id, a random salt and SHA-256(salt || secret)
// are stored, so a copy of the store does not give away a token. Names are unique (they own
// jobs); a token can expire and be revoked, and then authenticates no more.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "server/api/auth.h"
#include "server/store/store.h"

namespace boreas::server {

struct TokenRequest {
  std::string name;  // who the token is for (owner of its jobs, shown in the audit log); empty = role-N
  Role role = Role::kUser;
  std::vector<std::string> queues;
  std::string unix_user = {};  // the account its jobs run as when the daemon is root; must exist
  int64_t expires_us = 0;      // wall time it stops working; 0 = never
};

struct CreatedToken {
  std::string name;   // as given, or the generated role-N
  std::string token;  // shown once; it cannot be recovered
};

// Creates a token. Refuses a name already taken (revoked tokens keep theirs, so a new token cannot
// act on an old owner's jobs) and a Unix account this machine does not have.
Result<CreatedToken> create_token(Store& store, const TokenRequest& req, int64_t now_us);
// The principal a bearer token belongs to; nullopt for unknown, malformed, wrong, revoked or
// expired (at now_us) tokens.
std::optional<Principal> authenticate(Store& store, const std::string& token, int64_t now_us);

// The parts authenticate() is made of, for the API's token cache (token_cache.h).
// A token's row: who it is, and what checks a presented secret against it.
struct TokenRecord {
  std::string salt;
  std::string hash;  // hex SHA-256(salt || secret)
  Principal who;
  int64_t expires_us = 0;  // 0 = never
  int64_t revoked_us = 0;  // 0 = not revoked
};
// "brs_<id>_<secret>" → {id, secret}; nullopt when malformed.
std::optional<std::pair<std::string, std::string>> split_token(const std::string& token);
// The row of token ID; nullopt when there is none (or the store cannot be read).
std::optional<TokenRecord> read_token(Store& store, const std::string& id);
// WHO when SECRET matches and the token is neither revoked nor expired at now_us.
std::optional<Principal> check_token(const TokenRecord& record, const std::string& secret, int64_t now_us);

struct TokenInfo {
  std::string name;
  Role role = Role::kUser;
  std::vector<std::string> queues;
  std::string unix_user;
  int64_t created_us = 0;
  int64_t expires_us = 0;  // 0 = never
  int64_t revoked_us = 0;  // 0 = not revoked
};
// Every token, oldest first; never the secret.
Result<std::vector<TokenInfo>> list_tokens(Store& store);
// Revokes the live token NAME; not_found when there is none.
Status revoke_token(Store& store, const std::string& name, int64_t now_us);

// The Unix account a job submitted by WHO runs as (its token's; empty = the daemon's own). When
// the daemon runs as root, a token without an account, or one mapped to uid 0, is refused unless
// allow_root_jobs: otherwise any user's job would run as root.
Result<std::string> job_account(const Principal& who, bool allow_root_jobs);

// "a,b,,c" → {a, b, c}: the queue list of a token or a command line.
std::vector<std::string> split_queue_list(const std::string& csv);

// Exposed for tests: hex SHA-256 of salt || secret.
std::string salted_hash(const std::string& salt, const std::string& secret);

}  // namespace boreas::server
