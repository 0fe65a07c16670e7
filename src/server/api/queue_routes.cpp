// The queues resource, and who the token is (GET /v1/queues, /v1/whoami) (docs/api/openapi.yaml).

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "server/api/exchange.h"
#include "server/api/http_api.h"
#include "server/api/http_util.h"

namespace boreas::server {

using nlohmann::json;

void ApiServer::add_queue_routes() {
  http_->Get("/v1/queues", [this](const httplib::Request& req, httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    if (!ex.allow(Action::kReadCluster, {}, "", "")) {
      return;
    }
    json out = json::array();
    for (const QueueView& q : controller_.queues()) {
      json queue = {{"name", q.name}, {"pending", q.pending}, {"running", q.running},
                    {"gpus_in_use", q.gpus_in_use}, {"guaranteed_gpus", q.guaranteed_gpus}};
      if (q.borrow_limit_gpus) {
        queue["borrow_limit_gpus"] = *q.borrow_limit_gpus;
      }
      out.push_back(std::move(queue));
    }
    send_json(res, 200, {{"queues", out}});
  });

  // Who the token is: the console shows only the actions its role may take (the API still decides).
  http_->Get("/v1/whoami", [this](const httplib::Request& req, httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    if (!ex.allow(Action::kReadCluster, {}, "", "")) {
      return;
    }
    const Principal& p = *ex.who();
    send_json(res, 200, {{"name", p.name}, {"role", std::string(to_string(p.role))}, {"queues", p.queues}});
  });
}

}  // namespace boreas::server
