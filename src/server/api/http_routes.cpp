// The API's job and cluster routes (docs/api/openapi.yaml).

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "server/api/auth.h"
#include "server/api/http_api.h"
#include "server/api/http_util.h"
#include "server/jobs/job_json.h"
#include "server/jobs/job_logs.h"
#include "server/jobs/output_path.h"
#include "server/jobs/job_records.h"
#include "server/api/token_cache.h"
#include "server/api/tokens.h"

namespace boreas::server {
namespace {

using nlohmann::json;

Time now_wall() {
  return Time::from_micros(std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count());
}

std::optional<Principal> principal_of(TokenCache& tokens, const httplib::Request& req) {
  const std::string header = req.get_header_value("Authorization");
  constexpr std::string_view kBearer = "Bearer ";
  if (header.rfind(kBearer, 0) != 0) {
    return std::nullopt;
  }
  return tokens.authenticate(header.substr(kBearer.size()), now_wall().us());
}

std::optional<uint32_t> id_of(const httplib::Request& req) {
  const std::string s = req.matches[1].str();
  if (s.empty() || s.size() > 9) {
    return std::nullopt;
  }
  const uint32_t v = static_cast<uint32_t>(std::stoul(s));  // the route admits digits only
  return v == 0 ? std::nullopt : std::optional<uint32_t>(v);
}

// A query parameter that must be a whole number in [lo, hi]; `fallback` when absent.
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

// Empty (any) or one of JobState's names.
Status check_state_name(const std::string& state) {
  std::string known;
  for (JobState st : {JobState::kPending, JobState::kRunning, JobState::kPreempted, JobState::kCompleted,
                      JobState::kFailed, JobState::kCancelled}) {
    if (state.empty() || state == to_string(st)) {
      return Status::ok();
    }
    known += (known.empty() ? "" : ", ") + std::string(to_string(st));
  }
  return invalid_argument("query parameter state=`" + state + "`: unknown state; use one of " + known);
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

// A request after authentication: who is asking, and how to answer and audit it.
class Exchange {
 public:
  Exchange(Store& store, TokenCache& tokens, const httplib::Request& req, httplib::Response& res)
      : store_(store), res_(res), who_(principal_of(tokens, req)), peer_(req.remote_addr) {}

  const std::optional<Principal>& who() const { return who_; }
  std::string name() const { return who_ ? who_->name : "-"; }
  Caller caller() const { return {name(), peer_}; }

  // Answers 401/403 and returns false unless allowed; a 403 is audited when `action` mutates
  // (401s are counted and audited in aggregate by ApiServer::note_unauthenticated).
  bool allow(Action action, const Scope& scope, const std::string& audit_action,
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
  void fail(const Status& s, const std::string& audit_action, const std::string& target) {
    if (http_status(s) == 503) {
      res_.set_header("Retry-After", "5");
    }
    send_error(res_, http_status(s), s.message());
    audit(audit_action, target, std::to_string(http_status(s)));
  }
  void audit(const std::string& action, const std::string& target, const std::string& result) {
    if (!action.empty()) {
      (void)store_.write({{audit_row(now_wall(), name(), action, target, result, peer_)}});
    }
  }

 private:
  Store& store_;
  httplib::Response& res_;
  std::optional<Principal> who_;
  std::string peer_;
};

// The job a GET /v1/jobs/{id}/... request names, for a known token; nullopt once answered with
// 401 or 404.
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

json job_json(Controller& c, const LiveJob& j, const std::optional<Principal>& who) {
  return job_to_json(j, c.node_names(j), env_visible_to(who, j.owner));
}

json gpu_usage_json(const std::vector<uint32_t>& jobs) {
  json out = json::array();
  for (size_t g = 0; g < jobs.size(); ++g) {
    json gpu = {{"index", g}, {"busy", jobs[g] != 0}};
    if (jobs[g] != 0) {
      gpu["job"] = jobs[g];
    }
    out.push_back(std::move(gpu));
  }
  return out;
}

// The latest NVML sample of each GPU, on the entries of the node it describes.
void add_telemetry(json& gpu_usage, const std::vector<GpuSample>& samples) {
  for (const GpuSample& s : samples) {
    if (s.index < gpu_usage.size()) {
      json& gpu = gpu_usage[s.index];
      gpu["temperature_c"] = s.temperature_c;
      gpu["power_w"] = s.power_mw / 1000.0;
      gpu["utilization"] = s.utilization_pct;
    }
  }
}


// A byte count from the query, or nullopt when absent.
Result<std::optional<uint64_t>> byte_param(const httplib::Request& req, const std::string& key) {
  const std::string v = req.get_param_value(key);
  if (v.empty()) {
    return std::optional<uint64_t>();
  }
  if (v.size() > 15 || v.find_first_not_of("0123456789") != std::string::npos) {
    return invalid_argument(key + "=" + v + ": expected a byte count (digits)");
  }
  return std::optional<uint64_t>(std::stoull(v));
}

}  // namespace

// A job's stdout or stderr: its owner and admins only (output, like env, may hold secrets).
void ApiServer::add_log_routes() {
  http_->Get(R"(/v1/jobs/(\d+)/logs)", [this](const httplib::Request& req, httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    const auto job = requested_job(controller_, ex, req);
    if (!job) {
      return;
    }
    if (!env_visible_to(ex.who(), job->owner)) {
      send_error(res, 403, "token of `" + ex.name() + "` may not read the output of job " +
                               std::to_string(job->id.value()) + ": only its owner and admins may");
      return;
    }
    const std::string stream = req.has_param("stream") ? req.get_param_value("stream") : "stdout";
    auto file = log_file_name(stream);
    auto offset = byte_param(req, "offset");
    auto tail = byte_param(req, "tail");  // the last N bytes when there is no offset; 64 KiB by default
    const Status bad = !file.is_ok() ? file.status() : !offset.is_ok() ? offset.status() : !tail.is_ok() ? tail.status() : Status::ok();
    if (!bad.is_ok()) {
      ex.fail(bad, "", "");
      return;
    }
    // A file the job chose (sbatch -o/-e) is read where it is, not through the daemon: the job's
    // account could swap it for a link to a file only the daemon may read.
    const std::string& chosen = stream == "stderr" ? job->request.error : job->request.output;
    if (!chosen.empty()) {
      ex.fail(conflict("job " + std::to_string(job->id.value()) + " writes its " + stream + " to " +
                       expand_output_pattern(chosen, job->id, job->request.name) +
                       " (submitted with -o/-e); read it there"),
              "", "");
      return;
    }
    auto chunk = read_log_chunk(options_.jobs_dir + "/" + std::to_string(job->id.value()) + "/" + *file, *offset,
                                tail->value_or(64 * 1024));
    if (!chunk.is_ok()) {
      ex.fail(chunk.status(), "", "");
      return;
    }
    send_json(res, 200, {{"id", job->id.value()}, {"stream", stream}, {"state", to_string(job->state)},
                         {"offset", chunk->offset}, {"next_offset", chunk->next_offset},
                         {"size", chunk->size}, {"data", chunk->data}});
  });
}

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

void ApiServer::add_cluster_routes() {
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

  http_->Get("/v1/nodes", [this](const httplib::Request& req, httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    if (!ex.allow(Action::kReadCluster, {}, "", "")) {
      return;
    }
    json out = json::array();
    for (const NodeView& n : controller_.nodes()) {
      json usage = gpu_usage_json(n.gpu_jobs);
      if (options_.telemetry != nullptr && n.name == options_.telemetry_node) {
        add_telemetry(usage, options_.telemetry->latest());
      }
      out.push_back({{"name", n.name}, {"gpu_type", n.gpu_type}, {"gpus", n.gpus}, {"free_gpus", n.free_gpus},
                     {"drained", n.drained}, {"gpu_usage", std::move(usage)}});
    }
    send_json(res, 200, {{"nodes", out}});
  });

  http_->Post(R"(/v1/nodes/([A-Za-z0-9._-]+)/(drain|resume))", [this](const httplib::Request& req,
                                                                      httplib::Response& res) {
    Exchange ex(store_, tokens_, req, res);
    const std::string node = req.matches[1].str();
    const std::string verb = req.matches[2].str();
    if (!ex.allow(Action::kDrainNode, {}, verb, "node/" + node)) {
      return;
    }
    Status s = controller_.set_drained(ex.caller(), node, verb == "drain");
    if (!s.is_ok()) {
      ex.fail(s, verb, "node/" + node);
      return;
    }
    send_json(res, 200, {{"name", node}, {"drained", verb == "drain"}});
  });
}

}  // namespace boreas::server
