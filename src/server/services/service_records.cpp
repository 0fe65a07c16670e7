#include "server/services/service_records.h"

namespace boreas::server {

SqlStatement insert_service_row(const ServiceConfig& s) {
  return {"INSERT INTO services (name, owner, spec, created_us) VALUES (?1, ?2, ?3, ?4)",
          {s.name, s.owner, service_to_json(s).dump(), s.created_us}};
}

SqlStatement delete_service_row(const std::string& name) {
  return {"DELETE FROM services WHERE name = ?1", {name}};
}

Result<std::vector<ServiceConfig>> load_services(Store& store) {
  auto rows = store.query({"SELECT name, spec FROM services ORDER BY name", {}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<ServiceConfig> out;
  for (const SqlRow& row : *rows) {
    auto s = parse_service(as_text(row[1]), SpecOrigin::kStore);
    if (!s.is_ok()) {
      return s.status().with_context("the store's service `" + as_text(row[0]) + "` does not parse: ");
    }
    out.push_back(std::move(*s));
  }
  return out;
}

}  // namespace boreas::server
