#include "server/store/sql.h"

#include <sqlite3.h>

#include <memory>

namespace boreas::server {
namespace {

struct StmtDeleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using StmtPtr = std::unique_ptr<sqlite3_stmt, StmtDeleter>;

// What an operator can do about a failure of the disk under the store (the API answers 503).
std::string storage_hint(sqlite3* db) {
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
      return "; the data directory's disk is full or not writable: free space or fix its permissions "
             "(nothing was changed; retry once it is fixed)";
    default:
      return "";
  }
}

Status sql_error(sqlite3* db, const std::string& sql) {
  return io_error("sqlite: " + std::string(sqlite3_errmsg(db)) + " in `" + sql.substr(0, 80) + "`" +
                  storage_hint(db));
}

int bind_one(sqlite3_stmt* s, int index, const SqlValue& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) {
    return sqlite3_bind_int64(s, index, *i);
  }
  if (const auto* t = std::get_if<std::string>(&v)) {
    return sqlite3_bind_text(s, index, t->data(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
  }
  return sqlite3_bind_null(s, index);
}

SqlValue column_value(sqlite3_stmt* s, int col) {
  switch (sqlite3_column_type(s, col)) {
    case SQLITE_INTEGER:
      return static_cast<int64_t>(sqlite3_column_int64(s, col));
    case SQLITE_NULL:
      return std::monostate{};
    default: {
      const auto* text = sqlite3_column_text(s, col);
      const int n = sqlite3_column_bytes(s, col);
      return std::string(reinterpret_cast<const char*>(text), static_cast<size_t>(n));
    }
  }
}

SqlRow read_row(sqlite3_stmt* s) {
  SqlRow row;
  const int n = sqlite3_column_count(s);
  row.reserve(static_cast<size_t>(n));
  for (int c = 0; c < n; ++c) {
    row.push_back(column_value(s, c));
  }
  return row;
}

// Binds `stmt`'s parameters to `s` and steps it to the end; the caller resets or finalizes `s`.
Status execute(sqlite3* db, sqlite3_stmt* s, const SqlStatement& stmt, std::vector<SqlRow>* rows) {
  for (size_t i = 0; i < stmt.params.size(); ++i) {
    if (bind_one(s, static_cast<int>(i + 1), stmt.params[i]) != SQLITE_OK) {
      return sql_error(db, stmt.sql);
    }
  }
  for (;;) {
    const int rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) {
      return Status::ok();
    }
    if (rc != SQLITE_ROW) {
      return sql_error(db, stmt.sql);
    }
    if (rows != nullptr) {
      rows->push_back(read_row(s));
    }
  }
}

}  // namespace

Status sql_run(sqlite3* db, const SqlStatement& stmt, std::vector<SqlRow>* rows) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, stmt.sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
    return sql_error(db, stmt.sql);
  }
  StmtPtr s(raw);
  return execute(db, s.get(), stmt, rows);
}

StatementCache::~StatementCache() {
  for (auto& [sql, s] : cached_) {
    sqlite3_finalize(s);
  }
}

Status StatementCache::run(const SqlStatement& stmt, std::vector<SqlRow>* rows) {
  auto it = cached_.find(stmt.sql);
  if (it == cached_.end()) {
    if (cached_.size() >= kCapacity) {
      return sql_run(db_, stmt, rows);
    }
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v3(db_, stmt.sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &raw, nullptr) != SQLITE_OK) {
      sqlite3_finalize(raw);
      return sql_error(db_, stmt.sql);
    }
    it = cached_.emplace(stmt.sql, raw).first;
  }
  Status result = execute(db_, it->second, stmt, rows);
  // A statement left mid-step would hold its read transaction open (and block checkpoints).
  sqlite3_reset(it->second);
  sqlite3_clear_bindings(it->second);
  return result;
}

Status sql_exec(sqlite3* db, const std::string& script) {
  char* err = nullptr;
  if (sqlite3_exec(db, script.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err != nullptr ? err : "unknown error";
    sqlite3_free(err);
    return io_error("sqlite: " + msg + " in `" + script.substr(0, 80) + "`" + storage_hint(db));
  }
  return Status::ok();
}

int64_t as_int(const SqlValue& v) {
  const auto* i = std::get_if<int64_t>(&v);
  return i != nullptr ? *i : 0;
}

std::string as_text(const SqlValue& v) {
  if (const auto* t = std::get_if<std::string>(&v)) {
    return *t;
  }
  if (const auto* i = std::get_if<int64_t>(&v)) {
    return std::to_string(*i);
  }
  return {};
}

}  // namespace boreas::server
