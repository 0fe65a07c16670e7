#include "server/api/tokens.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "server/exec/process.h"
#include "server/store/token_rows.h"

namespace boreas::server {
namespace {

constexpr std::string_view kPrefix = "brs_";

std::string hex(const unsigned char* data, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 0xf];
  }
  return out;
}

std::optional<std::string> random_hex(size_t bytes) {
  std::vector<unsigned char> buf(bytes);
  if (RAND_bytes(buf.data(), static_cast<int>(bytes)) != 1) {
    return std::nullopt;
  }
  return hex(buf.data(), bytes);
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) {
    out += (out.empty() ? "" : ",") + s;
  }
  return out;
}

}  // namespace

std::vector<std::string> split_queue_list(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string part; std::getline(in, part, ',');) {
    if (!part.empty()) {
      out.push_back(part);
    }
  }
  return out;
}

std::string salted_hash(const std::string& salt, const std::string& secret) {
  const std::string input = salt + secret;
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(input.data()), input.size(), digest);
  return hex(digest, sizeof(digest));
}

namespace {

Result<std::string> fresh_name(Store& store, Role role) {
  const std::string prefix = std::string(to_string(role)) + "-";
  auto names = token_names_starting(store, prefix);
  if (!names.is_ok()) {
    return names.status();
  }
  uint64_t highest = 0;
  for (const std::string& name : *names) {
    const std::string n = name.substr(prefix.size());
    if (!n.empty() && n.size() < 10 && n.find_first_not_of("0123456789") == std::string::npos) {
      highest = std::max<uint64_t>(highest, std::stoull(n));
    }
  }
  return prefix + std::to_string(highest + 1);
}

Status check_request(const TokenRequest& req) {
  if (req.role != Role::kAdmin && req.queues.empty()) {
    return invalid_argument("a " + std::string(to_string(req.role)) +
                            " token needs at least one queue; pass --queues a,b");
  }
  if (!req.unix_user.empty()) {
    auto account = lookup_account(req.unix_user);
    if (!account.is_ok()) {
      return account.status().with_context("--unix-user: ");
    }
  }
  return Status::ok();
}

TokenInfo info_from(const TokenRow& r) {
  return {r.name,         parse_role(r.role).value_or(Role::kViewer), split_queue_list(r.queues), r.unix_user,
          r.created_us, r.expires_us,                                r.revoked_us};
}

}  // namespace

Result<CreatedToken> create_token(Store& store, const TokenRequest& req, int64_t now_us) {
  BOREAS_RETURN_IF_ERROR(check_request(req));
  auto name = req.name.empty() ? fresh_name(store, req.role) : Result<std::string>(req.name);
  if (!name.is_ok()) {
    return name.status();
  }
  auto id = random_hex(8);
  auto secret = random_hex(32);
  auto salt = random_hex(16);
  if (!id || !secret || !salt) {
    return internal_error("the system random generator failed; no token was created");
  }
  auto inserted = insert_token_row(store, {*id, *salt, salted_hash(*salt, *secret), *name,
                                          std::string(to_string(req.role)), join(req.queues), req.unix_user, now_us,
                                          req.expires_us, 0});
  if (!inserted.is_ok()) {
    return inserted.status();
  }
  if (!*inserted) {
    return conflict("a token named `" + *name + "` already exists (names own jobs and stay taken after "
                    "revocation); choose another --name (see `boreas token list`)");
  }
  return CreatedToken{*name, std::string(kPrefix) + *id + "_" + *secret};
}

std::optional<std::pair<std::string, std::string>> split_token(const std::string& token) {
  if (token.rfind(kPrefix, 0) != 0) {
    return std::nullopt;
  }
  const auto sep = token.find('_', kPrefix.size());
  if (sep == std::string::npos) {
    return std::nullopt;
  }
  return std::pair{token.substr(kPrefix.size(), sep - kPrefix.size()), token.substr(sep + 1)};
}

std::optional<TokenRecord> read_token(Store& store, const std::string& id) {
  auto row = read_token_row(store, id);
  if (!row.is_ok() || !row->has_value()) {
    return std::nullopt;
  }
  const TokenRow& r = **row;
  auto role = parse_role(r.role);
  if (!role) {
    return std::nullopt;
  }
  return TokenRecord{r.salt, r.hash, Principal{r.name, *role, split_queue_list(r.queues), r.unix_user}, r.expires_us,
                     r.revoked_us};
}

std::optional<Principal> check_token(const TokenRecord& record, const std::string& secret, int64_t now_us) {
  const std::string got = salted_hash(record.salt, secret);
  if (got.size() != record.hash.size() || CRYPTO_memcmp(got.data(), record.hash.data(), got.size()) != 0) {
    return std::nullopt;
  }
  if (record.revoked_us != 0 || (record.expires_us != 0 && now_us >= record.expires_us)) {
    return std::nullopt;
  }
  return record.who;
}

std::optional<Principal> authenticate(Store& store, const std::string& token, int64_t now_us) {
  auto parts = split_token(token);
  auto record = parts ? read_token(store, parts->first) : std::nullopt;
  return record ? check_token(*record, parts->second, now_us) : std::nullopt;
}

Result<std::string> job_account(const Principal& who, bool allow_root_jobs) {
  if (geteuid() != 0) {
    return who.unix_user;  // the executor runs it as the daemon's own account
  }
  const std::string token = "token `" + who.name + "`";
  if (who.unix_user.empty()) {
    if (allow_root_jobs) {
      return std::string();
    }
    return invalid_argument(token + " maps to no Unix account and the daemon runs as root, so its jobs would "
                            "run as root; an admin recreates it with `boreas token create --unix-user NAME` "
                            "(or starts the daemon with --allow-root-jobs)");
  }
  auto account = lookup_account(who.unix_user);
  if (!account.is_ok()) {
    return account.status().with_context(token + ": ");
  }
  if (account->uid == 0 && !allow_root_jobs) {
    return invalid_argument(token + " maps to `" + who.unix_user + "`, uid 0; jobs run as root only when "
                            "the daemon is started with --allow-root-jobs");
  }
  return who.unix_user;
}

Result<std::vector<TokenInfo>> list_tokens(Store& store) {
  auto rows = read_token_rows(store);
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<TokenInfo> out;
  for (const TokenRow& r : *rows) {
    out.push_back(info_from(r));
  }
  return out;
}

Status revoke_token(Store& store, const std::string& name, int64_t now_us) {
  auto revoked = revoke_token_row(store, name, now_us);
  if (!revoked.is_ok()) {
    return revoked.status();
  }
  if (!*revoked) {
    return not_found("no live token named `" + name + "`; `boreas token list` shows the names");
  }
  return Status::ok();
}

}  // namespace boreas::server
