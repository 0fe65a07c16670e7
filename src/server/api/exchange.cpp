#include "server/api/exchange.h"

#include <algorithm>
#include <chrono>
#include <string_view>

#include "server/api/http_api.h"
#include "server/api/http_util.h"
#include "server/jobs/job_json.h"
#include "server/store/audit_rows.h"

namespace boreas::server {
namespace {

std::optional<Principal> principal_of(TokenCache& tokens, const httplib::Request& req) {
  const std::string header = req.get_header_value("Authorization");
  constexpr std::string_view kBearer = "Bearer ";
  if (header.rfind(kBearer, 0) != 0) {
    return std::nullopt;
  }
  return tokens.authenticate(header.substr(kBearer.size()), now_wall().us());
}

}  // namespace

Time now_wall() {
  return Time::from_micros(std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count());
}

std::optional<uint32_t> id_of(const httplib::Request& req) {
  const std::string s = req.matches[1].str();
  if (s.empty() || s.size() > 9) {
    return std::nullopt;
  }
  const uint32_t v = static_cast<uint32_t>(std::stoul(s));  // the route admits digits only
  return v == 0 ? std::nullopt : std::optional<uint32_t>(v);
}

Result<uint32_t> count_param(const httplib::Request& req, const std::string& name, uint32_t fallback,
                             uint32_t lo, uint32_t hi) {
  if (!req.has_param(name)) {
    return fallback;
  }
  const std::string v = req.get_param_value(name);
  const bool digits = !v.empty() && v.size() <= 10 && std::all_of(v.begin(), v.end(), ::isdigit);
  const uint64_t n = digits ? std::stoull(v) : 0;
  if (!digits || n < lo || n > hi) {
    return invalid_argument("query parameter " + name + "=`" + v + "`: use a whole number from " +
                            std::to_string(lo) + " to " + std::to_string(hi));
  }
  return static_cast<uint32_t>(n);
}

Exchange::Exchange(Store& store, TokenCache& tokens, const httplib::Request& req, httplib::Response& res)
    : store_(store), res_(res), who_(principal_of(tokens, req)), peer_(req.remote_addr) {}

bool Exchange::allow(Action action, const Scope& scope, const std::string& audit_action,
           const std::string& target) {
  const Decision d = authorize(who_, action, scope);
  if (d == Decision::kAllow) {
    return true;
  }
  const int code = d == Decision::kUnauthenticated ? 401 : 403;
  if (code == 401) {
    res_.set_header("WWW-Authenticate", "Bearer");
    send_error(res_, 401, "missing or unknown bearer token; send `Authorization: Bearer <token>` "
                          "(an admin creates one with `boreas token create`)");
  } else {
    send_error(res_, 403, "token of `" + name() + "` (" + std::string(to_string(who_->role)) +
                              ") may not " + std::string(to_string(action)) + " in queue `" +
                              scope.queue + "`");
  }
  if (code == 403) {
    audit(audit_action, target, "403");
  }
  return false;
}

void Exchange::fail(const Status& s, const std::string& audit_action, const std::string& target) {
  if (http_status(s) == 503) {
    res_.set_header("Retry-After", "5");
  }
  send_error(res_, http_status(s), s.message());
  audit(audit_action, target, std::to_string(http_status(s)));
}

void Exchange::audit(const std::string& action, const std::string& target, const std::string& result) {
  if (!action.empty()) {
    (void)store_.write({{audit_row(now_wall(), name(), action, target, result, peer_)}});
  }
}

std::optional<LiveJob> requested_job(Controller& c, Exchange& ex, const httplib::Request& req) {
  if (!ex.who()) {
    ex.allow(Action::kReadJob, {}, "", "");
    return std::nullopt;
  }
  const auto id = id_of(req);
  auto job = id ? c.job(JobId(*id)) : Result<LiveJob>(not_found("no such job"));
  if (!job.is_ok()) {
    ex.fail(job.status(), "", "");
    return std::nullopt;
  }
  return std::move(*job);
}

nlohmann::json job_json(Controller& c, const LiveJob& j, const std::optional<Principal>& who) {
  return job_to_json(j, c.node_names(j), env_visible_to(who, j.owner));
}

}  // namespace boreas::server
