#pragma once
// The load a service replica reports (docs/serving.md, "Services in the live daemon"): the daemon
// GETs http://127.0.0.1:PORT/metrics and reads Prometheus text. In-flight requests are the sum of
// the `inflight_requests` samples; a replica without them may be vLLM, whose
// vllm:num_requests_running + vllm:num_requests_waiting are read instead.

#include <string>

#include "core/status.h"
#include "core/time.h"

namespace boreas::server {

// In-flight requests in a /metrics answer; an error names what was missing or malformed.
Result<double> parse_inflight(const std::string& text);

// GET http://127.0.0.1:PORT/metrics within `timeout`, parsed by parse_inflight.
Result<double> fetch_inflight(int port, Duration timeout);

}  // namespace boreas::server
