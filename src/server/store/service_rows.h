#pragma once
// The `services` table (migration 11): one row per service, its spec as JSON. What the JSON means
// is server/services' business (service_records.h).

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "server/store/store.h"

namespace boreas::server {

struct ServiceRow {
  std::string name;
  std::string owner;
  std::string spec_json;
  int64_t created_us = 0;
};

SqlStatement insert_service_row(const ServiceRow& row);
SqlStatement delete_service_row(const std::string& name);
// Every row, by name.
Result<std::vector<ServiceRow>> read_service_rows(Store& store);

}  // namespace boreas::server
