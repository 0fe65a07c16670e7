#pragma once
// The HTTP/JSON API (docs/api/openapi.yaml). Handlers authenticate, authorize, hand the change
// to the controller and answer once it is durable. No request can crash or stall the daemon:
// bodies are size-limited, JSON is parsed strictly, and every error is a JSON message.

#include <memory>
#include <string>

#include "core/status.h"
#include "server/controller.h"
#include "server/metrics.h"
#include "server/store.h"

namespace httplib {
class Server;
}

namespace boreas::server {

struct ApiOptions {
  size_t max_body_bytes = 1 << 20;
  int threads = 32;
  bool allow_root_jobs = false;  // `serve --allow-root-jobs`: see job_account() in tokens.h
};

class ApiServer {
 public:
  ApiServer(Controller& controller, Store& store, MetricsRegistry& metrics, ApiOptions options = {});
  ~ApiServer();
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  // Binds host:port (port 0 = any free port) and returns the port bound.
  Result<int> bind(const std::string& host, int port);
  void run();   // serves until stop()
  void stop();

 private:
  void add_routes();
  void add_job_routes();
  void add_cluster_routes();

  Controller& controller_;
  Store& store_;
  MetricsRegistry& metrics_;
  MetricFamily* requests_;
  ApiOptions options_;
  std::unique_ptr<httplib::Server> http_;
};

// HTTP status for a Status code: 400, 404, 409, 500.
int http_status(const Status& s);

}  // namespace boreas::server
