#pragma once
// Thin RAII helpers over the SQLite C API: values, statements, and one-shot execution.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/status.h"

struct sqlite3;

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

int64_t as_int(const SqlValue& v);           // 0 when NULL or text
std::string as_text(const SqlValue& v);      // "" when NULL; integers are formatted

}  // namespace boreas::server
