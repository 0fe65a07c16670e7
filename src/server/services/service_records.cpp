#include "server/services/service_records.h"

namespace boreas::server {

SqlStatement insert_service_row(const ServiceConfig& s) {
  return insert_service_row(ServiceRow{s.name, s.owner, service_to_json(s).dump(), s.created_us});
}

Result<std::vector<ServiceConfig>> load_services(Store& store) {
  auto rows = read_service_rows(store);
  if (!rows.is_ok()) {
    return rows.status();
  }
  std::vector<ServiceConfig> out;
  for (const ServiceRow& row : *rows) {
    auto s = parse_service(row.spec_json, SpecOrigin::kStore);
    if (!s.is_ok()) {
      return s.status().with_context("the store's service `" + row.name + "` does not parse: ");
    }
    out.push_back(std::move(*s));
  }
  return out;
}

}  // namespace boreas::server
