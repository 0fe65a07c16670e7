#include "server/services/replica_load.h"

#include <httplib.h>

#include <charconv>
#include <optional>

namespace boreas::server {
namespace {

struct Sample {
  std::string_view name;
  std::string_view value;
};

// Where the label set that starts at `open` ('{') ends, quoted values and escapes skipped.
size_t labels_end(std::string_view line, size_t open) {
  bool quoted = false;
  for (size_t i = open + 1; i < line.size(); ++i) {
    if (quoted && line[i] == '\\') {
      ++i;
    } else if (line[i] == '"') {
      quoted = !quoted;
    } else if (!quoted && line[i] == '}') {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// `name{labels} value [timestamp]`; nullopt for comments, blank and malformed lines.
std::optional<Sample> sample_of(std::string_view line) {
  if (line.empty() || line.front() == '#') {
    return std::nullopt;
  }
  const size_t name_end = line.find_first_of("{ \t");
  if (name_end == std::string_view::npos) {
    return std::nullopt;
  }
  size_t rest = name_end;
  if (line[name_end] == '{') {
    rest = labels_end(line, name_end);
    if (rest == std::string_view::npos) {
      return std::nullopt;
    }
  }
  const size_t v = line.find_first_not_of(" \t", rest);
  if (v == std::string_view::npos) {
    return std::nullopt;
  }
  const size_t v_end = line.find_first_of(" \t\r", v);
  return Sample{line.substr(0, name_end),
                line.substr(v, v_end == std::string_view::npos ? v_end : v_end - v)};
}

std::optional<double> number_of(std::string_view text) {
  double d = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
  return ec == std::errc() && end == text.data() + text.size() && d >= 0 ? std::optional<double>(d)
                                                                         : std::nullopt;
}

}  // namespace

Result<double> parse_inflight(const std::string& text) {
  double own = 0;
  double vllm = 0;
  bool has_own = false;
  bool has_vllm = false;
  size_t line_no = 0;
  for (size_t at = 0; at < text.size(); ++line_no) {
    const size_t nl = text.find('\n', at);
    const std::string_view line(text.data() + at, (nl == std::string::npos ? text.size() : nl) - at);
    at = nl == std::string::npos ? text.size() : nl + 1;
    const auto s = sample_of(line);
    const bool mine = s && s->name == "inflight_requests";
    const bool theirs =
        s && (s->name == "vllm:num_requests_running" || s->name == "vllm:num_requests_waiting");
    if (!mine && !theirs) {
      continue;
    }
    const auto n = number_of(s->value);
    if (!n) {
      return invalid_argument("line " + std::to_string(line_no + 1) + ": " + std::string(s->name) +
                              " has value `" + std::string(s->value) + "`; expected a non-negative number");
    }
    (mine ? own : vllm) += *n;
    (mine ? has_own : has_vllm) = true;
  }
  if (!has_own && !has_vllm) {
    return not_found(
        "no inflight_requests sample (nor vLLM's vllm:num_requests_running/waiting); "
        "serve a line `inflight_requests N` on GET /metrics");
  }
  return has_own ? own : vllm;
}

Result<double> fetch_inflight(int port, Duration timeout) {
  httplib::Client client("127.0.0.1", port);
  const auto us = std::chrono::microseconds(timeout.us());
  client.set_connection_timeout(us);
  client.set_read_timeout(us);
  client.set_write_timeout(us);
  const auto res = client.Get("/metrics");
  if (!res) {
    return io_error("GET http://127.0.0.1:" + std::to_string(port) +
                    "/metrics: " + httplib::to_string(res.error()));
  }
  if (res->status != 200) {
    return io_error("GET http://127.0.0.1:" + std::to_string(port) + "/metrics answered " +
                    std::to_string(res->status));
  }
  return parse_inflight(res->body);
}

}  // namespace boreas::server
