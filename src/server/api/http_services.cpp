#include "server/api/http_services.h"

#include <httplib.h>

#include <chrono>

#include "server/api/http_api.h"
#include "server/api/http_util.h"
#include "server/store/audit_rows.h"
#include "server/api/tokens.h"

namespace boreas::server {
namespace {

using nlohmann::json;

Time wall_now() {
  return Time::from_micros(std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count());
}

// One service request: its token's principal, and the answers that end it (401/403 audited
// for changes, errors with the status of their code).
struct ServiceRequest {
  ServiceRequest(Store& s, const httplib::Request& req, httplib::Response& r)
      : store(s), res(r), peer(req.remote_addr) {
    const std::string header = req.get_header_value("Authorization");
    if (header.rfind("Bearer ", 0) == 0) {
      who = authenticate(store, header.substr(7), wall_now().us());
    }
  }
  bool allow(Action action, const Scope& scope, const std::string& audited, const std::string& target) {
    const Decision d = authorize(who, action, scope);
    if (d == Decision::kAllow) {
      return true;
    }
    if (d == Decision::kUnauthenticated) {
      res.set_header("WWW-Authenticate", "Bearer");
      send_error(res, 401, "missing or unknown bearer token; send `Authorization: Bearer <token>`");
      return false;
    }
    send_error(res, 403,
               "token of `" + who->name + "` may not " + std::string(to_string(action)) + " in queue `" +
                   scope.queue + "`");
    audit(audited, target, "403");
    return false;
  }
  void fail(const Status& s, const std::string& audited, const std::string& target) {
    send_error(res, http_status(s), s.message());
    audit(audited, target, std::to_string(http_status(s)));
  }
  void audit(const std::string& action, const std::string& target, const std::string& result) {
    if (!action.empty()) {
      (void)store.write({{audit_row(wall_now(), who ? who->name : "-", action, target, result, peer)}});
    }
  }
  Caller caller() const { return {who ? who->name : "-", peer}; }

  Store& store;
  httplib::Response& res;
  std::string peer;
  std::optional<Principal> who;
};

Scope scope_of(const ServiceView& v) {
  return {v.config.replica.queue, v.config.owner};
}

// The service a /v1/services/{name} request names, if the token may `action` on it; nullopt once
// answered (401, 404, 403).
std::optional<ServiceView> named_service(ServiceManager& services, ServiceRequest& rq,
                                         const std::string& name, Action action, const std::string& audited) {
  if (!rq.who) {
    rq.allow(action, {}, audited, "service/" + name);
    return std::nullopt;
  }
  auto v = services.get(name);
  if (!v.is_ok()) {
    rq.fail(v.status(), audited, "service/" + name);
    return std::nullopt;
  }
  if (!rq.allow(action, scope_of(*v), audited, "service/" + name)) {
    return std::nullopt;
  }
  return std::move(*v);
}

void create_route(ServiceManager& services, ServiceRequest& rq, const std::string& body,
                  bool allow_root_jobs) {
  if (!rq.who) {
    rq.allow(Action::kSubmit, {}, "service.create", "service/-");
    return;
  }
  auto parsed = parse_service(body);
  if (!parsed.is_ok()) {
    rq.fail(parsed.status(), "service.create", "service/-");
    return;
  }
  const std::string target = "service/" + parsed->name;
  if (!rq.allow(Action::kSubmit, {parsed->replica.queue, rq.who->name}, "service.create", target)) {
    return;
  }
  auto account = job_account(*rq.who, allow_root_jobs);
  if (!account.is_ok()) {
    send_error(rq.res, 403, account.status().message());
    rq.audit("service.create", target, "403");
    return;
  }
  parsed->replica.run_as = *account;
  auto made = services.create(rq.caller(), std::move(*parsed));
  if (!made.is_ok()) {
    rq.fail(made.status(), "service.create", target);
    return;
  }
  send_json(rq.res, 201, service_view_json(*made, true));
}

}  // namespace

json service_view_json(const ServiceView& v, bool show_env) {
  json j = service_to_json(v.config);
  if (!show_env) {
    j["replica"].erase("env");
  }
  j["replica"].erase("run_as");
  j["desired_replicas"] = v.desired;
  j["inflight_requests"] = v.inflight;
  json replicas = json::array();
  for (const ReplicaView& r : v.replicas) {
    json one = {{"job", r.job},
                {"index", r.index},
                {"port", r.port},
                {"state", std::string(to_string(r.state))},
                {"inflight_requests", r.inflight}};
    if (r.cold_start_s) {
      one["cold_start_s"] = *r.cold_start_s;
    }
    replicas.push_back(std::move(one));
  }
  j["replicas"] = std::move(replicas);
  if (!v.last_error.empty()) {
    j["last_error"] = v.last_error;
  }
  return j;
}

void add_service_routes(httplib::Server& http, ServiceManager& services, Store& store, bool allow_root_jobs) {
  http.Post("/v1/services",
            [&services, &store, allow_root_jobs](const httplib::Request& req, httplib::Response& res) {
              ServiceRequest rq(store, req, res);
              create_route(services, rq, req.body, allow_root_jobs);
            });
  http.Get("/v1/services", [&services, &store](const httplib::Request& req, httplib::Response& res) {
    ServiceRequest rq(store, req, res);
    if (!rq.allow(Action::kReadJob, {}, "", "")) {
      return;
    }
    json out = json::array();
    for (const ServiceView& v : services.list()) {
      if (authorize(rq.who, Action::kReadJob, scope_of(v)) == Decision::kAllow) {
        out.push_back(service_view_json(v, env_visible_to(rq.who, v.config.owner)));
      }
    }
    send_json(res, 200, {{"services", out}});
  });
  http.Get(R"(/v1/services/([a-z0-9-]+))",
           [&services, &store](const httplib::Request& req, httplib::Response& res) {
             ServiceRequest rq(store, req, res);
             const auto v = named_service(services, rq, req.matches[1].str(), Action::kReadJob, "");
             if (v) {
               send_json(res, 200, service_view_json(*v, env_visible_to(rq.who, v->config.owner)));
             }
           });
  http.Delete(R"(/v1/services/([a-z0-9-]+))",
              [&services, &store](const httplib::Request& req, httplib::Response& res) {
                ServiceRequest rq(store, req, res);
                const std::string name = req.matches[1].str();
                if (!named_service(services, rq, name, Action::kCancel, "service.delete")) {
                  return;
                }
                auto gone = services.remove(rq.caller(), name);
                if (!gone.is_ok()) {
                  rq.fail(gone.status(), "service.delete", "service/" + name);
                  return;
                }
                send_json(res, 200, service_view_json(*gone, true));
              });
}

}  // namespace boreas::server
