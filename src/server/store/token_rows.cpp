#include "server/store/token_rows.h"

namespace boreas::server {
namespace {

constexpr const char* kColumns =
    "id, salt, hash, name, role, queues, unix_user, created_us, expires_us, revoked_us";

TokenRow row_from(const SqlRow& r) {
  return {as_text(r[0]), as_text(r[1]), as_text(r[2]), as_text(r[3]), as_text(r[4]),
          as_text(r[5]), as_text(r[6]), as_int(r[7]),  as_int(r[8]),  as_int(r[9])};
}

}  // namespace

Result<std::vector<std::string>> token_names_starting(Store& store, const std::string& prefix) {
  // substr, not LIKE: `_` and `%` in a prefix would be wildcards there.
  auto rows = store.query({"SELECT name FROM tokens WHERE substr(name, 1, length(?1)) = ?1", {prefix}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<std::string> names;
  for (const SqlRow& r : *rows) {
    names.push_back(as_text(r[0]));
  }
  return names;
}

Result<bool> insert_token_row(Store& store, const TokenRow& t) {
  Status s = store.write_sync(
      {{{"INSERT INTO tokens(id, salt, hash, name, role, queues, created_us, unix_user, expires_us)"
         " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE NOT EXISTS (SELECT 1 FROM tokens WHERE name = ?4)",
         {t.id, t.salt, t.hash, t.name, t.role, t.queues, t.created_us, t.unix_user, t.expires_us}}}});
  if (!s.is_ok()) {
    return s;
  }
  auto mine = store.query({"SELECT 1 FROM tokens WHERE id = ?1", {t.id}});
  if (!mine.is_ok()) {
    return mine.status();
  }
  store.note_tokens_changed();
  return !mine->empty();
}

Result<std::optional<TokenRow>> read_token_row(Store& store, const std::string& id) {
  auto rows = store.query({std::string("SELECT ") + kColumns + " FROM tokens WHERE id = ?1", {id}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  if (rows->empty()) {
    return std::optional<TokenRow>();
  }
  return std::optional<TokenRow>(row_from(rows->front()));
}

Result<std::vector<TokenRow>> read_token_rows(Store& store) {
  auto rows = store.query({std::string("SELECT ") + kColumns + " FROM tokens ORDER BY created_us, name", {}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<TokenRow> out;
  for (const SqlRow& r : *rows) {
    out.push_back(row_from(r));
  }
  return out;
}

Result<bool> revoke_token_row(Store& store, const std::string& name, int64_t now_us) {
  auto live = store.query({"SELECT id FROM tokens WHERE name = ?1 AND revoked_us = 0", {name}});
  if (!live.is_ok()) {
    return live.status();
  }
  if (live->empty()) {
    return false;
  }
  Status s = store.write_sync({{{"UPDATE tokens SET revoked_us = ?2 WHERE name = ?1 AND revoked_us = 0",
                                 {name, now_us}}}});
  store.note_tokens_changed();  // after the commit: a daemon that sees the bump reads the revocation
  if (!s.is_ok()) {
    return s;
  }
  return true;
}

}  // namespace boreas::server
