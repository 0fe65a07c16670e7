#pragma once
// A live service (docs/serving.md, "Services in the live daemon"): a replica template — the
// POST /v1/jobs body every replica job is submitted with — and the autoscaler's bounds. Parsed
// strictly from POST /v1/services and from the store, with the JSON path of a bad field.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "server/jobs/job_json.h"
#include "server/jobs/live_job.h"
#include "server/exec/replica_env.h"

namespace boreas::server {

struct ServiceConfig {
  std::string name;
  std::string owner;      // the token name that created it: its replicas are this owner's jobs
  SubmitRequest replica;  // every replica job's request (queue, class, GPUs, command, run_as)
  int32_t min_replicas = 1;
  int32_t max_replicas = 1;
  double target_inflight = 32;     // in-flight requests per replica the autoscaler aims at
  double interval_s = 10;          // how often the daemon polls the replicas and decides
  double scale_down_delay_s = 60;  // desired must stay lower this long before replicas are cancelled
  int64_t created_us = 0;
};

// A POST /v1/services body (kClient) or a stored spec (kStore, which carries owner, run_as and
// created_us). Checks bounds: 1 <= min <= max <= 64, at least one GPU per replica, a name of
// lowercase letters, digits and '-'.
Result<ServiceConfig> parse_service(const std::string& body, SpecOrigin origin = SpecOrigin::kClient);
// The stored form (parse_service with kStore reads it back); the API answers with it too.
nlohmann::json service_to_json(const ServiceConfig& s);

}  // namespace boreas::server
