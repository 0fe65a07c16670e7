#pragma once
// Bearer tokens: "brs_<id>_<secret>". Only the id, a random salt and SHA-256(salt || secret)
// are stored, so a copy of the store does not give away a token.

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "server/auth.h"
#include "server/store.h"

namespace boreas::server {

struct TokenRequest {
  std::string name;  // who the token is for, shown in the audit log
  Role role = Role::kUser;
  std::vector<std::string> queues;
};

// Creates a token and returns its text; it is shown once and cannot be recovered.
Result<std::string> create_token(Store& store, const TokenRequest& req, int64_t now_us);
// The principal a bearer token belongs to; nullopt for unknown, malformed or wrong tokens.
std::optional<Principal> authenticate(Store& store, const std::string& token);

// "a,b,,c" → {a, b, c}: the queue list of a token or a command line.
std::vector<std::string> split_queue_list(const std::string& csv);

// Exposed for tests: hex SHA-256 of salt || secret.
std::string salted_hash(const std::string& salt, const std::string& secret);

}  // namespace boreas::server
