#include "server/store/service_rows.h"

namespace boreas::server {

SqlStatement insert_service_row(const ServiceRow& row) {
  return {"INSERT INTO services (name, owner, spec, created_us) VALUES (?1, ?2, ?3, ?4)",
          {row.name, row.owner, row.spec_json, row.created_us}};
}

SqlStatement delete_service_row(const std::string& name) {
  return {"DELETE FROM services WHERE name = ?1", {name}};
}

Result<std::vector<ServiceRow>> read_service_rows(Store& store) {
  auto rows = store.query({"SELECT name, owner, spec, created_us FROM services ORDER BY name", {}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<ServiceRow> out;
  for (const SqlRow& r : *rows) {
    out.push_back({as_text(r[0]), as_text(r[1]), as_text(r[2]), as_int(r[3])});
  }
  return out;
}

}  // namespace boreas::server
