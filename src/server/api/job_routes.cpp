// The jobs resource: submit, list, get (and why), cancel and checkpoint (docs/api/openapi.yaml).

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "core/job_states.h"
#include "server/api/exchange.h"
#include "server/api/http_api.h"
#include "server/api/http_util.h"
#include "server/api/tokens.h"
#include "server/jobs/job_json.h"
#include "server/jobs/job_records.h"

namespace boreas::server {
namespace {

using nlohmann::json;

// Empty (any) or one of JobState's names.
Status check_state_name(const std::string& state) {
  if (state.empty() || parse_job_state(state)) {
    return Status::ok();
  }
  return invalid_argument("query parameter state=`" + state + "`: unknown state; use one of " + job_state_names());
}

// GET /v1/jobs?state=&queue=&owner=&after=ID&limit=N (docs/api/openapi.yaml).
Result<JobQuery> job_query(const httplib::Request& req) {
  JobQuery q{req.get_param_value("state"), req.get_param_value("queue"), req.get_param_value("owner")};
  BOREAS_RETURN_IF_ERROR(check_state_name(q.state));
  auto after = count_param(req, "after", 0, 0, 999'999'999);
  auto limit = count_param(req, "limit", 1000, 1, 10000);
  if (!after.is_ok() || !limit.is_ok()) {
    return after.is_ok() ? limit.status() : after.status();
  }
  q.after = *after;
  q.limit = *limit;
  return q;
}

// At most 128 printable ASCII characters (clients send a UUID).
Status check_idempotency_key(const std::string& key) {
  const bool printable = std::all_of(key.begin(), key.end(), [](char c) { return c > ' ' && c < 127; });
  if (key.size() > 128 || !printable) {
    return invalid_argument("Idempotency-Key header: use at most 128 printable ASCII characters "
                            "without spaces (e.g. a UUID)");
  }
  return Status::ok();
}

}  // namespace

void ApiServer::add_job_routes() {
  http_->Post("/v1/jobs", [this](const httplib::Request& req, httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    if (!ex.who()) {
      ex.allow(Action::kSubmit, {}, "submit", "job/-");
      return;
    }
    auto parsed = parse_submit(req.body);
    if (!parsed.is_ok()) {
      ex.fail(parsed.status(), "submit", "job/-");
      return;
    }
    if (!ex.allow(Action::kSubmit, {parsed->queue, ex.name()}, "submit", "queue/" + parsed->queue)) {
      return;
    }
    auto account = job_account(*ex.who(), options_.allow_root_jobs);
    if (!account.is_ok()) {
      send_error(res, 403, account.status().message());
      ex.audit("submit", "queue/" + parsed->queue, "403");
      return;
    }
    parsed->run_as = *account;
    const std::string key = req.get_header_value("Idempotency-Key");
    if (Status k = check_idempotency_key(key); !k.is_ok()) {
      ex.fail(k, "submit", "job/-");
      return;
    }
    auto done = controller_.submit_once(ex.caller(), std::move(*parsed), key);
    if (!done.is_ok()) {
      ex.fail(done.status(), "submit", "job/-");
      return;
    }
    send_json(res, done->replayed ? 200 : 201, job_json(controller_, done->job, ex.who()));
  });

  http_->Get("/v1/jobs", [this](const httplib::Request& req, httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    if (!ex.who()) {
      ex.allow(Action::kReadJob, {}, "", "");
      return;
    }
    auto query = job_query(req);
    auto page = query.is_ok() ? controller_.list(*query) : Result<JobPage>(query.status());
    if (!page.is_ok()) {
      ex.fail(page.status(), "", "");
      return;
    }
    json out = json::array();
    for (const LiveJob& j : page->jobs) {
      if (authorize(ex.who(), Action::kReadJob, {j.request.queue, j.owner}) == Decision::kAllow) {
        out.push_back(job_json(controller_, j, ex.who()));
      }
    }
    json body = {{"jobs", out}};
    if (page->more && !page->jobs.empty()) {  // jobs past this page: ask again with after=next_after
      body["next_after"] = page->jobs.back().id.value();
    }
    send_json(res, 200, body);
  });

  http_->Get(R"(/v1/jobs/(\d+)(/why)?)", [this](const httplib::Request& req, httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    const auto job = requested_job(controller_, ex, req);
    if (!job) {
      return;
    }
    if (!ex.allow(Action::kReadJob, {job->request.queue, job->owner}, "", "")) {
      return;
    }
    if (req.matches[2].length() > 0) {
      send_json(res, 200, why_json(*job));
      return;
    }
    send_json(res, 200, job_json(controller_, *job, ex.who()));
  });

  http_->Post(R"(/v1/jobs/(\d+)/(cancel|checkpoint))", [this](const httplib::Request& req,
                                                              httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    const std::string verb = req.matches[2].str();
    const Action action = verb == "cancel" ? Action::kCancel : Action::kCheckpoint;
    const std::string target = "job/" + req.matches[1].str();
    if (!ex.who()) {
      ex.allow(action, {}, verb, target);
      return;
    }
    const auto id = id_of(req);
    auto job = id ? controller_.job(JobId(*id)) : Result<LiveJob>(not_found("no such job"));
    if (!job.is_ok()) {
      ex.fail(job.status(), verb, target);
      return;
    }
    if (!ex.allow(action, {job->request.queue, job->owner}, verb, target)) {
      return;
    }
    auto done = action == Action::kCancel ? controller_.cancel(ex.caller(), JobId(*id))
                                          : controller_.checkpoint(ex.caller(), JobId(*id));
    if (!done.is_ok()) {
      ex.fail(done.status(), verb, target);
      return;
    }
    send_json(res, 200, job_json(controller_, *done, ex.who()));
  });
}

}  // namespace boreas::server
