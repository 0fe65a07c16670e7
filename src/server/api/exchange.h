#pragma once
// What every route file of the API shares: the request's caller (token, audit) as an Exchange,
// the job a /v1/jobs/{id}/... path names, and query parameter helpers.

#include <httplib.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/status.h"
#include "core/time.h"
#include "server/api/auth.h"
#include "server/api/token_cache.h"
#include "server/driver/controller.h"
#include "server/store/store.h"

namespace boreas::server {

Time now_wall();
// The positive id the route's first group captured; nullopt for 0 or more than 9 digits.
std::optional<uint32_t> id_of(const httplib::Request& req);
// A query parameter that must be a whole number in [lo, hi]; `fallback` when absent.
Result<uint32_t> count_param(const httplib::Request& req, const std::string& name, uint32_t fallback,
                             uint32_t lo, uint32_t hi);

// A request after authentication: who is asking, and how to answer and audit it.
class Exchange {
 public:
  Exchange(Store& store, TokenCache& tokens, const httplib::Request& req, httplib::Response& res);

  const std::optional<Principal>& who() const { return who_; }
  std::string name() const { return who_ ? who_->name : "-"; }
  Caller caller() const { return {name(), peer_}; }

  // Answers 401/403 and returns false unless allowed; a 403 is audited when `action` mutates
  // (401s are counted and audited in aggregate by ApiServer::note_unauthenticated).
  bool allow(Action action, const Scope& scope, const std::string& audit_action, const std::string& target);
  void fail(const Status& s, const std::string& audit_action, const std::string& target);
  void audit(const std::string& action, const std::string& target, const std::string& result);

 private:
  Store& store_;
  httplib::Response& res_;
  std::optional<Principal> who_;
  std::string peer_;
};

// The job a GET /v1/jobs/{id}/... request names, for a known token; nullopt once answered with
// 401 or 404.
std::optional<LiveJob> requested_job(Controller& c, Exchange& ex, const httplib::Request& req);
// The job as the API shows it to WHO (env only to its owner and admins).
nlohmann::json job_json(Controller& c, const LiveJob& j, const std::optional<Principal>& who);

}  // namespace boreas::server
