#pragma once
// Services to and from their rows in the store (server/store/service_rows.h).

#include <vector>

#include "server/services/service_config.h"
#include "server/store/service_rows.h"

namespace boreas::server {

SqlStatement insert_service_row(const ServiceConfig& s);
// Every stored service, by name; a row that does not parse is an error naming the service.
Result<std::vector<ServiceConfig>> load_services(Store& store);

}  // namespace boreas::server
