#pragma once
// JSON forms of the API's bodies. Parsing is strict: unknown fields, wrong types and impossible
// values are refused with the JSON path of the offending field ($.gpus) and how to fix it.

#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "server/jobs/live_job.h"

namespace boreas::server {

// kClient: a POST /v1/jobs body; reserved variables (is_reserved_env) and `run_as` are refused.
// kStore: a spec the daemon stored itself, which carries `run_as`.
enum class SpecOrigin : uint8_t { kClient, kStore };
Result<SubmitRequest> parse_submit(const std::string& body, SpecOrigin origin = SpecOrigin::kClient);
// "never", "on-failure" (= on-failure:3) or "on-failure:N" with N in 1..1000.
Result<RestartPolicy> parse_restart(const std::string& text);
std::string restart_to_string(const RestartPolicy& r);
nlohmann::json submit_to_json(const SubmitRequest& r);
// `request.env` is left out unless show_env (the job's owner and admins see it, see env_visible_to).
nlohmann::json job_to_json(const LiveJob& job, const std::vector<std::string>& node_names, bool show_env = true);
// GET /v1/jobs/{id}/why: id, state, reason, and the policy's `kind` while it explains a wait.
nlohmann::json why_json(const LiveJob& job);

}  // namespace boreas::server
