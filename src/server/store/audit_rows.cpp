#include "server/store/audit_rows.h"

namespace boreas::server {

SqlStatement audit_row(Time at, const std::string& who, const std::string& action, const std::string& target,
                       const std::string& result, const std::string& peer) {
  return {"INSERT INTO audit(at_us, who, action, target, result, peer) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
          {at.us(), who, action, target, result, peer}};
}

Result<std::vector<AuditRow>> read_audit_rows(Store& store, int64_t after_seq, uint32_t limit) {
  auto rows = store.query({"SELECT seq, at_us, who, action, target, result, peer FROM audit WHERE seq > ?1 "
                           "ORDER BY seq LIMIT ?2",
                           {after_seq, int64_t{limit}}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<AuditRow> out;
  out.reserve(rows->size());
  for (const SqlRow& r : *rows) {
    out.push_back({as_int(r[0]), Time::from_micros(as_int(r[1])), as_text(r[2]), as_text(r[3]), as_text(r[4]),
                   as_text(r[5]), as_text(r[6])});
  }
  return out;
}

}  // namespace boreas::server
