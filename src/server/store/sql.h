#pragma once
// Thin RAII helpers over the SQLite C API: values, statements, and one-shot execution.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "core/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace boreas::server {

using SqlValue = std::variant<std::monostate, int64_t, std::string>;
using SqlRow = std::vector<SqlValue>;

// One SQL statement with positional parameters (?1, ?2, ...).
struct SqlStatement {
  std::string sql;
  std::vector<SqlValue> params;
};

// Runs a statement on `db`; rows (if any) are appended to `rows` when it is not null.
Status sql_run(sqlite3* db, const SqlStatement& stmt, std::vector<SqlRow>* rows = nullptr);
// Runs a script of one or more parameterless statements.
Status sql_exec(sqlite3* db, const std::string& script);

// Prepared statements of one connection, kept by SQL text: a statement run again is only reset
// and rebound (parsing was 16% of a durable submit, docs/PERFORMANCE.md). At most kCapacity
// texts are kept; others are prepared and finalized per call, so SQL built with literals cannot
// grow it. Not thread-safe: use it under whatever serializes the connection.
class StatementCache {
 public:
  static constexpr size_t kCapacity = 64;
  explicit StatementCache(sqlite3* db) : db_(db) {}
  ~StatementCache();
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;

  // As sql_run on the cache's connection.
  Status run(const SqlStatement& stmt, std::vector<SqlRow>* rows = nullptr);
  size_t size() const { return cached_.size(); }

 private:
  sqlite3* db_;
  std::unordered_map<std::string, sqlite3_stmt*> cached_;
};

int64_t as_int(const SqlValue& v);           // 0 when NULL or text
std::string as_text(const SqlValue& v);      // "" when NULL; integers are formatted

}  // namespace boreas::server
