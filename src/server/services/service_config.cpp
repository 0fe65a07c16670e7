#include "server/services/service_config.h"

#include <algorithm>

namespace boreas::server {
namespace {

using nlohmann::json;

constexpr int32_t kMaxReplicas = 64;

Status field_error(const std::string& field, const std::string& what) {
  return invalid_argument("$." + field + ": " + what);
}

Status check_name(const json& v, std::string& out) {
  const bool ok = v.is_string() && !v.get<std::string>().empty() && v.get<std::string>().size() <= 63;
  out = ok ? v.get<std::string>() : "";
  const bool chars = std::all_of(out.begin(), out.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
  if (!ok || !chars || out.front() == '-') {
    return field_error(
        "name",
        "expected 1 to 63 lowercase letters, digits and '-' (not first), e.g. \"chat\"; got " + v.dump());
  }
  return Status::ok();
}

Status read_replicas(const json& v, const char* field, int32_t& out) {
  if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > kMaxReplicas) {
    return field_error(
        field, "expected a whole number from 1 to " + std::to_string(kMaxReplicas) + ", got " + v.dump());
  }
  out = static_cast<int32_t>(v.get<int64_t>());
  return Status::ok();
}

// `what` names the unit: "a number of seconds", "a number of requests".
Status read_number(const json& v, const char* field, const char* what, double lo, double hi, double& out) {
  if (!v.is_number() || v.get<double>() < lo || v.get<double>() > hi) {
    return field_error(field, "expected " + std::string(what) + " from " + json(lo).dump() + " to " +
                                  json(hi).dump() + ", got " + v.dump());
  }
  out = v.get<double>();
  return Status::ok();
}

// The replica template: a POST /v1/jobs body, less what makes no sense for a replica.
Status read_replica(const json& v, SpecOrigin origin, SubmitRequest& out) {
  if (!v.is_object()) {
    return field_error("replica", "expected an object: the POST /v1/jobs body of each replica job");
  }
  auto r = parse_submit(v.dump(), origin);
  if (!r.is_ok()) {
    return r.status().with_context("$.replica: ");
  }
  if (r->gpus == 0) {
    return field_error("replica.gpus",
                       "a service's replicas need at least one GPU; give \"gpus\": N (N >= 1)");
  }
  if (!r->dependency.empty()) {
    return field_error("replica.dependency", "replicas start when the autoscaler wants them; leave it out");
  }
  out = std::move(*r);
  return Status::ok();
}

Status read_stored(const std::string& key, const json& v, ServiceConfig& s) {
  if (key == "owner" && v.is_string()) {
    s.owner = v.get<std::string>();
    return Status::ok();
  }
  if (key == "created_us" && v.is_number_integer()) {
    s.created_us = v.get<int64_t>();
    return Status::ok();
  }
  return field_error(key, "expected " + std::string(key == "owner" ? "a string" : "an integer"));
}

Status read_key(const std::string& key, const json& v, SpecOrigin origin, ServiceConfig& s) {
  if (key == "name") {
    return check_name(v, s.name);
  }
  if (key == "min_replicas" || key == "max_replicas") {
    return read_replicas(v, key.c_str(), key == "min_replicas" ? s.min_replicas : s.max_replicas);
  }
  if (key == "target_inflight") {
    return read_number(v, "target_inflight", "a number of requests", 0.001, 1e6, s.target_inflight);
  }
  if (key == "interval_s") {
    return read_number(v, "interval_s", "a number of seconds", 0.05, 3600, s.interval_s);
  }
  if (key == "scale_down_delay_s") {
    return read_number(v, "scale_down_delay_s", "a number of seconds", 0, 86400, s.scale_down_delay_s);
  }
  if (key == "replica") {
    return read_replica(v, origin, s.replica);
  }
  if ((key == "owner" || key == "created_us") && origin == SpecOrigin::kStore) {
    return read_stored(key, v, s);
  }
  if (key == "owner" || key == "created_us") {
    return field_error(key, "set by the daemon; leave it out");
  }
  return field_error(key,
                     "unknown field; known: name, replica, min_replicas, max_replicas, target_inflight, "
                     "interval_s, scale_down_delay_s");
}

Status check_complete(const json& j, const ServiceConfig& s) {
  for (const char* required : {"name", "replica"}) {
    if (!j.contains(required)) {
      return field_error(required, "missing");
    }
  }
  if (s.min_replicas > s.max_replicas) {
    return field_error("min_replicas", std::to_string(s.min_replicas) + " is above max_replicas " +
                                           std::to_string(s.max_replicas) +
                                           "; give MIN..MAX with MIN <= MAX");
  }
  return Status::ok();
}

}  // namespace

Result<ServiceConfig> parse_service(const std::string& body, SpecOrigin origin) {
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return invalid_argument(
        "the body is not a JSON object; send {\"name\": ..., \"replica\": {...}, "
        "\"min_replicas\": 1, \"max_replicas\": 4}");
  }
  ServiceConfig s;
  for (const auto& [key, v] : j.items()) {
    BOREAS_RETURN_IF_ERROR(read_key(key, v, origin, s));
  }
  if (!j.contains("max_replicas")) {
    s.max_replicas = std::max(s.max_replicas, s.min_replicas);
  }
  BOREAS_RETURN_IF_ERROR(check_complete(j, s));
  return s;
}

json service_to_json(const ServiceConfig& s) {
  return {{"name", s.name},
          {"owner", s.owner},
          {"replica", submit_to_json(s.replica)},
          {"min_replicas", s.min_replicas},
          {"max_replicas", s.max_replicas},
          {"target_inflight", s.target_inflight},
          {"interval_s", s.interval_s},
          {"scale_down_delay_s", s.scale_down_delay_s},
          {"created_us", s.created_us}};
}

}  // namespace boreas::server
