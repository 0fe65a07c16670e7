#include "server/http_api.h"
#include "server/http_util.h"

#include <httplib.h>

#include <nlohmann/json.hpp>


namespace boreas::server {
namespace {

using nlohmann::json;

}  // namespace

int http_status(const Status& s) {
  switch (s.code()) {
    case ErrorCode::kOk: return 200;
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kUnsupported: return 400;
    case ErrorCode::kNotFound: return 404;
    case ErrorCode::kConflict: return 409;
    case ErrorCode::kIo:
    case ErrorCode::kInternal: return 500;
  }
  return 500;
}

ApiServer::ApiServer(Controller& controller, Store& store, MetricsRegistry& metrics, ApiOptions options)
    : controller_(controller),
      store_(store),
      metrics_(metrics),
      options_(options),
      http_(std::make_unique<httplib::Server>()) {
  requests_ = &metrics.add("boreas_http_requests_total", "HTTP requests answered, by method and status code.",
                           MetricType::kCounter, {"method", "code"});
  http_->set_payload_max_length(options_.max_body_bytes);
  http_->set_keep_alive_max_count(1000);
  http_->set_tcp_nodelay(true);  // small JSON answers must not wait for delayed ACKs
  const int threads = options_.threads;
  http_->new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  http_->set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    send_error(res, 500, "internal error while handling the request; see the daemon's log");
  });
  http_->set_logger([this](const httplib::Request& req, const httplib::Response& res) {
    requests_->add({req.method, std::to_string(res.status)});
  });
  add_routes();
}

ApiServer::~ApiServer() { stop(); }

Result<int> ApiServer::bind(const std::string& host, int port) {
  const int bound = port == 0 ? http_->bind_to_any_port(host) : (http_->bind_to_port(host, port) ? port : -1);
  if (bound <= 0) {
    return io_error("cannot listen on " + host + ":" + std::to_string(port) +
                    "; is the port in use? use port 0 to pick a free one");
  }
  return bound;
}

void ApiServer::run() { http_->listen_after_bind(); }

void ApiServer::stop() { http_->stop(); }

void ApiServer::add_routes() {
  http_->Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, {{"status", "ok"}});
  });
  http_->Get("/readyz", [this](const httplib::Request&, httplib::Response& res) {
    const bool ready = controller_.ready();
    send_json(res, ready ? 200 : 503, {{"status", ready ? "ready" : "starting"}});
  });
  http_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    controller_.refresh_metrics();
    res.set_content(metrics_.render(), "text/plain; version=0.0.4; charset=utf-8");
  });
  add_job_routes();
  add_cluster_routes();
}

}  // namespace boreas::server
