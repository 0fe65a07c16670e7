// A job's logs: GET /v1/jobs/{id}/logs (docs/api/openapi.yaml).

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "server/api/exchange.h"
#include "server/api/http_api.h"
#include "server/api/http_util.h"
#include "server/jobs/job_logs.h"
#include "server/jobs/output_path.h"

namespace boreas::server {
namespace {

using nlohmann::json;

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

}  // namespace boreas::server
