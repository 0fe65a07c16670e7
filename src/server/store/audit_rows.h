#pragma once
// The `audit` table (migrations 1 and 8): one row per action a caller took or was refused, in the
// order they were written (seq). Who, what and the result are the callers' words.

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/time.h"
#include "server/store/store.h"

namespace boreas::server {

struct AuditRow {
  int64_t seq = 0;  // assigned by the store; ignored when writing
  Time at;
  std::string who;     // the token's name, "-" when unauthenticated
  std::string action;  // "submit", "cancel", "drain", ...
  std::string target;  // "job/7", "node/n1", a path
  std::string result;  // "ok" or the HTTP status
  std::string peer;    // the client's address, "" when not known
};

SqlStatement audit_row(Time at, const std::string& who, const std::string& action, const std::string& target,
                       const std::string& result, const std::string& peer = "");
// At most LIMIT rows written after row AFTER_SEQ (0 = from the first), in the order written.
Result<std::vector<AuditRow>> read_audit_rows(Store& store, int64_t after_seq, uint32_t limit);

}  // namespace boreas::server
