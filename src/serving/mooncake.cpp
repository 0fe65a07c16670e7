// The Mooncake FAST'25 trace: JSON lines {timestamp (ms), input_length, output_length, hash_ids}.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "serving/request_trace.h"
#include "serving/text_lines.h"

namespace boreas::serving {

namespace {

constexpr int32_t kMooncakeBlockTokens = 512;  // FAST25-release/README.md

Status line_error(const std::string& file, size_t line, std::string_view what) {
  return invalid_argument(fmt::format("{}{}; each line is a JSON object with integer timestamp (ms, sorted), "
                                      "input_length, output_length and a hash_ids list "
                                      "(data/traces/mooncake-fast25/SOURCE.md)",
                                      where(file, line), what));
}

Result<int64_t> integer_field(const nlohmann::json& obj, const char* key, int64_t min, const std::string& file,
                              size_t line) {
  const auto it = obj.find(key);
  if (it == obj.end()) {
    return line_error(file, line, fmt::format("'{}' is missing", key));
  }
  if (!it->is_number_integer() && !it->is_number_unsigned()) {
    return line_error(file, line, fmt::format("'{}' is {}, expected an integer", key, it->dump()));
  }
  const auto v = it->get<int64_t>();
  if (v < min || v > INT32_MAX * int64_t{1000}) {
    return line_error(file, line, fmt::format("'{}' is {}, expected {} or more", key, v, min));
  }
  return v;
}

Status hash_ids(const nlohmann::json& obj, const std::string& file, size_t line, int64_t input,
                RequestTrace* trace) {
  const auto it = obj.find("hash_ids");
  if (it == obj.end()) {
    return Status::ok();
  }
  if (!it->is_array()) {
    return line_error(file, line, "'hash_ids' is not a list");
  }
  const int64_t max_blocks = (input + kMooncakeBlockTokens - 1) / kMooncakeBlockTokens;
  if (static_cast<int64_t>(it->size()) > max_blocks) {
    return line_error(file, line, fmt::format("{} hash_ids for {} input tokens; at most {} blocks of {} tokens",
                                              it->size(), input, max_blocks, kMooncakeBlockTokens));
  }
  for (const auto& h : *it) {
    if (!h.is_number_unsigned()) {
      return line_error(file, line, fmt::format("hash id {} is not a non-negative integer", h.dump()));
    }
    trace->blocks.push_back(h.get<uint64_t>());
  }
  return Status::ok();
}

Status parse_line(std::string_view line, const std::string& file, size_t line_no, RequestTrace* trace) {
  const auto obj = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (obj.is_discarded() || !obj.is_object()) {
    return line_error(file, line_no, "not a JSON object");
  }
  const auto ts = integer_field(obj, "timestamp", 0, file, line_no);
  const auto in = integer_field(obj, "input_length", 1, file, line_no);
  const auto out = integer_field(obj, "output_length", 1, file, line_no);
  for (const Status* s : {ts.is_ok() ? nullptr : &ts.status(), in.is_ok() ? nullptr : &in.status(),
                          out.is_ok() ? nullptr : &out.status()}) {
    if (s != nullptr) {
      return *s;
    }
  }
  if (*in > INT32_MAX || *out > INT32_MAX) {
    return line_error(file, line_no, "a length is too large");
  }
  Request r;
  r.arrival_us = *ts * 1000;
  if (!trace->requests.empty() && r.arrival_us < trace->requests.back().arrival_us) {
    return line_error(file, line_no, "the timestamp is earlier than the line before");
  }
  r.input_tokens = static_cast<int32_t>(*in);
  r.output_tokens = static_cast<int32_t>(*out);
  r.first_block = static_cast<uint32_t>(trace->blocks.size());
  BOREAS_RETURN_IF_ERROR(hash_ids(obj, file, line_no, *in, trace));
  r.block_count = static_cast<uint32_t>(trace->blocks.size() - r.first_block);
  trace->requests.push_back(r);
  return Status::ok();
}

}  // namespace

Result<RequestTrace> parse_mooncake_jsonl(std::string_view text, const std::string& file) {
  RequestTrace trace;
  trace.format = "mooncake";
  trace.block_tokens = kMooncakeBlockTokens;
  Status status;
  for_each_line(text, [&](size_t line_no, std::string_view line) {
    if (line.empty()) {
      return true;
    }
    status = parse_line(line, file, line_no, &trace);
    return status.is_ok();
  });
  if (!status.is_ok()) {
    return status;
  }
  if (trace.requests.empty()) {
    return invalid_argument(where(file, 1) + "no requests: the file has no JSON lines");
  }
  const int64_t first = trace.requests.front().arrival_us;
  for (auto& r : trace.requests) {
    r.arrival_us -= first;
  }
  return trace;
}

}  // namespace boreas::serving
