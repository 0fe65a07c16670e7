#include "server/tokens.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <sstream>

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

Result<std::string> create_token(Store& store, const TokenRequest& req, int64_t now_us) {
  if (req.name.empty()) {
    return invalid_argument("a token needs a name (who it is for); pass --name");
  }
  if (req.role != Role::kAdmin && req.queues.empty()) {
    return invalid_argument("a " + std::string(to_string(req.role)) +
                            " token needs at least one queue; pass --queues a,b");
  }
  auto id = random_hex(8);
  auto secret = random_hex(32);
  auto salt = random_hex(16);
  if (!id || !secret || !salt) {
    return internal_error("the system random generator failed; no token was created");
  }
  Status s = store.write_sync({{{"INSERT INTO tokens(id, salt, hash, name, role, queues, created_us)"
                                 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                                 {*id, *salt, salted_hash(*salt, *secret), req.name,
                                  std::string(to_string(req.role)), join(req.queues), now_us}}}});
  if (!s.is_ok()) {
    return s;
  }
  return std::string(kPrefix) + *id + "_" + *secret;
}

std::optional<Principal> authenticate(Store& store, const std::string& token) {
  if (token.rfind(kPrefix, 0) != 0) {
    return std::nullopt;
  }
  const auto sep = token.find('_', kPrefix.size());
  if (sep == std::string::npos) {
    return std::nullopt;
  }
  const std::string id = token.substr(kPrefix.size(), sep - kPrefix.size());
  const std::string secret = token.substr(sep + 1);
  auto rows = store.query({"SELECT salt, hash, name, role, queues FROM tokens WHERE id = ?1", {id}});
  if (!rows.is_ok() || rows->size() != 1) {
    return std::nullopt;
  }
  const SqlRow& r = rows->front();
  const std::string expected = as_text(r[1]);
  const std::string got = salted_hash(as_text(r[0]), secret);
  if (got.size() != expected.size() || CRYPTO_memcmp(got.data(), expected.data(), got.size()) != 0) {
    return std::nullopt;
  }
  auto role = parse_role(as_text(r[3]));
  if (!role) {
    return std::nullopt;
  }
  return Principal{as_text(r[2]), *role, split_queue_list(as_text(r[4]))};
}

}  // namespace boreas::server
