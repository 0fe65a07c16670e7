#pragma once
// The HTTP/JSON API (docs/api/openapi.yaml). Handlers authenticate, authorize, hand the change
// to the controller and answer once it is durable. No request can crash or stall the daemon:
// bodies are size-limited, JSON is parsed strictly, and every error is a JSON message.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/status.h"
#include "server/api/http_listener.h"
#include "server/api/token_cache.h"
#include "server/driver/controller.h"
#include "server/store/store.h"
#include "server/telemetry/gpu_metrics.h"
#include "server/telemetry/json_log.h"
#include "server/telemetry/metrics.h"

namespace boreas::server {

class ServiceManager;

struct ApiOptions {
  size_t max_body_bytes = 1 << 20;
  bool allow_root_jobs = false;  // `serve --allow-root-jobs`: see job_account() in tokens.h
  ListenerLimits limits;          // connections, per-peer cap, request deadline (http_listener.h)
  std::string jobs_dir;           // <jobs_dir>/<id>/stdout.log, stderr.log: GET /v1/jobs/{id}/logs
  // NVML samples of this machine's GPUs, shown on the cluster node they describe (GET /v1/nodes);
  // none when null or the node is empty.
  const GpuTelemetry* telemetry = nullptr;
  std::string telemetry_node;
  ServiceManager* services = nullptr;  // /v1/services (server/http_services.h); none when null
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
  void set_log(JsonLog* log) { log_ = log; }  // one line per request; none when null (tests)
  void drop_token_cache() { tokens_.clear(); }  // SIGHUP

 private:
  void add_routes();
  void add_job_routes();
  void add_queue_routes();  // and whoami
  void add_node_routes();
  void add_log_routes();
  void note_request(const httplib::Request& req, int status);
  void note_unauthenticated(const std::string& peer, const std::string& path);

  // Requests without a valid token: counted, and audited at most once per peer per minute.
  struct UnauthenticatedWindow {
    int64_t opened_us = 0;
    uint64_t since = 0;  // further requests since the window's row
  };

  Controller& controller_;
  Store& store_;
  TokenCache tokens_;
  MetricsRegistry& metrics_;
  MetricFamily* requests_;
  MetricFamily* unauthenticated_;
  JsonLog* log_ = nullptr;
  std::mutex unauth_mu_;
  std::map<std::string, UnauthenticatedWindow> unauth_;  // by peer address
  ApiOptions options_;
  std::unique_ptr<httplib::Server> http_;  // routes are added through the base class
  GuardedServer* listener_;                // the same object: accepts and reads
};

// HTTP status for a Status code: 400, 404, 409, 503 (the store cannot be written), 500.
int http_status(const Status& s);

}  // namespace boreas::server
