#include "server/api/http_api.h"
#include "server/api/http_util.h"

#include <httplib.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "server/api/http_console.h"
#include "server/api/http_services.h"
#include "server/store/audit_rows.h"

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
    case ErrorCode::kIo: return 503;  // the store could not be written (disk full, read-only)
    case ErrorCode::kInternal: return 500;
  }
  return 500;
}

ApiServer::ApiServer(Controller& controller, Store& store, MetricsRegistry& metrics, ApiOptions options)
    : controller_(controller),
      store_(store),
      tokens_(store),
      metrics_(metrics),
      options_(options),
      http_(std::make_unique<GuardedServer>(options.limits)),
      listener_(static_cast<GuardedServer*>(http_.get())) {
  requests_ = &metrics.add("boreas_http_requests_total", "HTTP requests answered, by method and status code.",
                           MetricType::kCounter, {"method", "code"});
  http_->set_payload_max_length(options_.max_body_bytes);
  http_->set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    send_error(res, 500, "internal error while handling the request; see the daemon's log");
  });
  unauthenticated_ = &metrics.add("boreas_http_unauthenticated_total",
                                   "Requests answered 401: no or unknown bearer token.", MetricType::kCounter, {});
  http_->set_logger([this](const httplib::Request& req, const httplib::Response& res) {
    requests_->add({req.method, std::to_string(res.status)});
    note_request(req, res.status);
  });
  add_routes();
}

ApiServer::~ApiServer() { stop(); }

Result<int> ApiServer::bind(const std::string& host, int port) { return listener_->bind_port(host, port); }

void ApiServer::run() { listener_->serve(); }

void ApiServer::stop() { listener_->shutdown(); }

void ApiServer::note_request(const httplib::Request& req, int status) {
  if (status == 401) {
    note_unauthenticated(req.remote_addr, req.path);
  }
  if (log_ != nullptr) {
    log_->info("request", {{"method", req.method}, {"path", req.path}, {"status", status},
                           {"peer", req.remote_addr}});
  }
}

// One audit row opens a minute-long window per peer; the next 401 after it writes the next row
// with the count in between, so a flood costs one fsync'd row a minute, not one a request.
void ApiServer::note_unauthenticated(const std::string& peer, const std::string& path) {
  unauthenticated_->add({});
  const int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  std::string result;
  {
    std::lock_guard lock(unauth_mu_);
    if (unauth_.size() > 4096) {  // many peers: forget the closed windows
      std::erase_if(unauth_, [&](const auto& kv) { return now - kv.second.opened_us >= 60'000'000; });
    }
    UnauthenticatedWindow& w = unauth_[peer];
    if (w.opened_us != 0 && now - w.opened_us < 60'000'000) {
      w.since += 1;
      return;
    }
    result = "401; " + std::to_string(w.since) + " more from this peer in the minute before";
    w = {now, 0};
  }
  (void)store_.write({{audit_row(Time::from_micros(now), "-", "unauthenticated", path, result, peer)}});
}

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
  add_log_routes();
  add_queue_routes();
  add_node_routes();
  add_console_routes(*http_);
  if (options_.services != nullptr) {
    add_service_routes(*http_, *options_.services, store_, options_.allow_root_jobs);
  }
}

}  // namespace boreas::server
