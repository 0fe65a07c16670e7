#pragma once
// The API's service routes (docs/api/openapi.yaml): POST/GET /v1/services, GET/DELETE
// /v1/services/{name}. Creating a service is submitting in its queue; reading and deleting one
// follow the rules of reading and cancelling its owner's jobs there.

#include <nlohmann/json.hpp>

#include "server/api/auth.h"
#include "server/services/service_manager.h"

namespace httplib {
class Server;
}

namespace boreas::server {

void add_service_routes(httplib::Server& http, ServiceManager& services, Store& store, bool allow_root_jobs);

// A service as the API shows it; the replica template's env only to its owner and admins.
nlohmann::json service_view_json(const ServiceView& v, bool show_env);

}  // namespace boreas::server
