#pragma once
// How services are written to and read back from the store (migration 11's `services` table).

#include <vector>

#include "server/services/service_config.h"
#include "server/store/store.h"

namespace boreas::server {

SqlStatement insert_service_row(const ServiceConfig& s);
SqlStatement delete_service_row(const std::string& name);
// Every stored service, by name; a row that does not parse is an error naming the service.
Result<std::vector<ServiceConfig>> load_services(Store& store);

}  // namespace boreas::server
