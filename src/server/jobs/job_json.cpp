#include "server/jobs/job_json.h"

#include <limits>

#include "core/duration.h"
#include "server/jobs/dependency.h"
#include "server/jobs/gpu_share.h"
#include "server/jobs/output_path.h"
#include "server/jobs/resource_request.h"

namespace boreas::server {
namespace {

using nlohmann::json;

Status field_error(const std::string& field, const std::string& what) {
  return invalid_argument("$." + field + ": " + what);
}

Status read_string(const json& j, const char* field, std::string& out) {
  if (!j.is_string()) {
    return field_error(field, "expected a string, got " + std::string(j.type_name()));
  }
  out = j.get<std::string>();
  return Status::ok();
}

Status read_count(const json& j, const char* field, uint64_t max, uint64_t& out) {
  if (!j.is_number_unsigned()) {
    return field_error(field, "expected a non-negative integer, got " + j.dump());
  }
  out = j.get<uint64_t>();
  if (out > max) {
    return field_error(field, std::to_string(out) + " is larger than " + std::to_string(max));
  }
  return Status::ok();
}

Status read_command(const json& j, SubmitRequest& r) {
  if (!j.is_array() || j.empty()) {
    return field_error("command", "expected a non-empty array of strings, e.g. [\"python\", \"train.py\"]");
  }
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string()) {
      return field_error("command[" + std::to_string(i) + "]", "expected a string");
    }
    r.command.push_back(j[i].get<std::string>());
  }
  return Status::ok();
}

// A stored spec may predate the reserved-variable rule: it still loads (the executor drops them).
Status read_env(const json& j, SubmitRequest& r, SpecOrigin origin) {
  if (!j.is_object()) {
    return field_error("env", "expected an object of strings, e.g. {\"SEED\": \"1\"}");
  }
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string() || k.empty() || k.find('=') != std::string::npos) {
      return field_error("env." + k, "expected a string value and a name without '='");
    }
    if (origin == SpecOrigin::kClient && is_reserved_env(k)) {
      return field_error("env." + k, "`" + k + "` is set by the daemon (the job's GPUs and identity) and may "
                         "not be set by a job; reserved: CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES, "
                         "ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, "
                         "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT and BOREAS_*");
    }
    r.env[k] = v.get<std::string>();
  }
  return Status::ok();
}

struct StringField {
  const char* name;
  std::string SubmitRequest::*member;
};
constexpr StringField kStringFields[] = {
    {"name", &SubmitRequest::name},   {"cwd", &SubmitRequest::cwd},
    {"queue", &SubmitRequest::queue}, {"priority_class", &SubmitRequest::priority_class},
    {"gpu_type", &SubmitRequest::gpu_type},
};

Status read_restart(const json& j, SubmitRequest& r) {
  std::string text;
  BOREAS_RETURN_IF_ERROR(read_string(j, "restart", text));
  auto policy = parse_restart(text);
  if (!policy.is_ok()) {
    return field_error("restart", policy.status().message());
  }
  r.restart = *policy;
  return Status::ok();
}

constexpr uint64_t kMaxTimeLimitS = 366ull * 24 * 3600;

// Seconds as a number, or a string in any of the CLI's duration forms ("90m", "1-00:00:00",
// "UNLIMITED" = none) read by the same parser.
Status read_time_limit(const json& v, SubmitRequest& r) {
  if (!v.is_string()) {
    uint64_t n = 0;
    BOREAS_RETURN_IF_ERROR(read_count(v, "time_limit_s", kMaxTimeLimitS, n));
    r.time_limit = Duration::seconds(static_cast<int64_t>(n));
    return Status::ok();
  }
  auto d = parse_duration(v.get<std::string>());
  if (!d.is_ok()) {
    return field_error("time_limit_s", "seconds as a number, or a string: " + d.status().message());
  }
  if (!d->is_infinite() && d->us() > Duration::seconds(kMaxTimeLimitS).us()) {
    return field_error("time_limit_s", v.get<std::string>() + " is longer than 366 days; use UNLIMITED for none");
  }
  r.time_limit = d->is_infinite() ? Duration::zero() : *d;
  return Status::ok();
}

Status read_dependency(const json& j, SubmitRequest& r) {
  BOREAS_RETURN_IF_ERROR(read_string(j, "dependency", r.dependency));
  auto parsed = parse_dependency(r.dependency);
  return parsed.is_ok() ? Status::ok() : field_error("dependency", parsed.status().message());
}

Status read_output_pattern(const std::string& key, const json& j, std::string& into) {
  BOREAS_RETURN_IF_ERROR(read_string(j, key.c_str(), into));
  return check_output_pattern(key, into);
}

Status read_number_field(const std::string& key, const json& v, SubmitRequest& r) {
  if (key == "gpus") {
    return read_gpus(v, r);
  }
  if (key == "gpu_memory") {
    return read_gpu_memory(v, r);
  }
  return read_time_limit(v, r);
}

Status read_field(const std::string& key, const json& v, SubmitRequest& r, SpecOrigin origin) {
  if (key == "run_as") {
    if (origin == SpecOrigin::kClient) {
      return field_error(key, "set by the daemon from your token's Unix account; leave it out");
    }
    return read_string(v, "run_as", r.run_as);
  }
  for (const StringField& f : kStringFields) {
    if (key == f.name) {
      return read_string(v, f.name, r.*f.member);
    }
  }
  if (key == "command") {
    return read_command(v, r);
  }
  if (key == "env") {
    return read_env(v, r, origin);
  }
  if (key == "gpus" || key == "gpu_memory" || key == "time_limit_s") {
    return read_number_field(key, v, r);
  }
  if (key == "restart") {
    return read_restart(v, r);
  }
  if (key == "cpus" || key == "memory") {
    return key == "cpus" ? read_cpus(v, r) : read_memory(v, r);
  }
  if (key == "dependency") {
    return read_dependency(v, r);
  }
  if (key == "output" || key == "error") {
    return read_output_pattern(key, v, key == "output" ? r.output : r.error);
  }
  return field_error(key, "unknown field; known fields are command, env, cwd, name, queue, "
                          "priority_class, gpus, gpu_memory, gpu_type, cpus, memory, time_limit_s, restart, dependency, output, error");
}

constexpr uint32_t kDefaultRestarts = 3;
constexpr uint32_t kMaxRestarts = 1000;

}  // namespace

Result<RestartPolicy> parse_restart(const std::string& text) {
  const std::string usage = "`" + text + "`: expected never, on-failure or on-failure:N (N in 1.." +
                            std::to_string(kMaxRestarts) + ")";
  if (text == "never") {
    return RestartPolicy{};
  }
  const std::string prefix = "on-failure";
  if (text.rfind(prefix, 0) != 0) {
    return invalid_argument(usage);
  }
  if (text.size() == prefix.size()) {
    return RestartPolicy{true, kDefaultRestarts};
  }
  const std::string n = text.substr(prefix.size() + 1);
  const bool digits = text[prefix.size()] == ':' && !n.empty() && n.size() <= 4 &&
                      n.find_first_not_of("0123456789") == std::string::npos;
  const uint32_t max = digits ? static_cast<uint32_t>(std::stoul(n)) : 0;
  if (max < 1 || max > kMaxRestarts) {
    return invalid_argument(usage);
  }
  return RestartPolicy{true, max};
}

std::string restart_to_string(const RestartPolicy& r) {
  return r.on_failure ? "on-failure:" + std::to_string(r.max_restarts) : "never";
}

Result<SubmitRequest> parse_submit(const std::string& body, SpecOrigin origin) {
  json j;
  try {
    j = json::parse(body);
  } catch (const json::parse_error& e) {
    return invalid_argument("request body is not valid JSON: " + std::string(e.what()));
  }
  if (!j.is_object()) {
    return invalid_argument("$: expected a JSON object with at least \"command\"");
  }
  SubmitRequest r;
  for (const auto& [key, value] : j.items()) {
    BOREAS_RETURN_IF_ERROR(read_field(key, value, r, origin));
  }
  if (r.command.empty()) {
    return field_error("command", "missing; give the program and its arguments as an array");
  }
  if (r.queue.empty()) {
    return field_error("queue", "must not be empty");
  }
  BOREAS_RETURN_IF_ERROR(check_share_request(r, j.contains("gpus")));
  return r;
}

json submit_to_json(const SubmitRequest& r) {
  json j = {{"command", r.command}, {"env", r.env},   {"queue", r.queue},
            {"name", r.name}, {"time_limit_s", r.time_limit.us() / 1'000'000},
            {"restart", restart_to_string(r.restart)}};
  write_gpus(r, j);
  for (const StringField& f : {kStringFields[1], kStringFields[3], kStringFields[4]}) {
    if (!(r.*f.member).empty()) {
      j[f.name] = r.*f.member;
    }
  }
  if (!r.run_as.empty()) {
    j["run_as"] = r.run_as;
  }
  if (!r.dependency.empty()) {
    j["dependency"] = r.dependency;
  }
  if (!r.output.empty()) {
    j["output"] = r.output;
  }
  if (!r.error.empty()) {
    j["error"] = r.error;
  }
  write_resources(r, j);
  return j;
}

json job_to_json(const LiveJob& job, const std::vector<std::string>& node_names, bool show_env) {
  json j = {{"id", job.id.value()},
            {"owner", job.owner},
            {"state", std::string(to_string(job.state))},
            {"reason", job.reason},
            {"request", submit_to_json(job.request)},
            {"priority", job.priority},
            {"attempts", job.attempts},
            {"restarts", job.restarts},
            {"submit_us", job.submit.us()}};
  if (!show_env) {
    j["request"].erase("env");
  }
  std::string joined;
  json nodes = json::array();
  for (size_t i = 0; i < job.placement.size() && i < node_names.size(); ++i) {
    joined += (joined.empty() ? "" : ",") + node_names[i];
    nodes.push_back({{"node", node_names[i]}, {"gpu_indexes", job.placement[i].gpus}});
  }
  if (!joined.empty()) {
    j["node"] = joined;  // "n1,n2" for a gang across nodes
    j["nodes"] = nodes;
  }
  if (nodes.size() == 1) {
    j["gpu_indexes"] = job.placement.front().gpus;
  }
  if (!job.executor_wait.empty()) {
    j["executor_wait"] = job.executor_wait;
  }
  if (job.share_milli > 0 && !job.placement.empty()) {  // the share it holds (or held) of its one GPU
    j["gpu_share"] = {{"gpus", static_cast<double>(job.share_milli) / 1000}, {"memory_bytes", job.share_bytes}};
  }
  if (job.start.us() != 0) {
    j["start_us"] = job.start.us();
  }
  if (job.end.us() != 0) {
    j["end_us"] = job.end.us();
  }
  if (job.exit_code >= 0) {
    j["exit_code"] = job.exit_code;
  }
  return j;
}

json why_json(const LiveJob& job) {
  json j = {{"id", job.id.value()}, {"state", std::string(to_string(job.state))}, {"reason", job.reason}};
  if (job.state == JobState::kPending && !job.reason_kind.empty()) {
    j["kind"] = job.reason_kind;
  }
  if (!job.executor_wait.empty()) {
    j["executor_wait"] = job.executor_wait;
  }
  return j;
}

}  // namespace boreas::server
