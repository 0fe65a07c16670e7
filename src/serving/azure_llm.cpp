// The Azure LLM inference trace 2023 (Splitwise): TIMESTAMP,ContextTokens,GeneratedTokens.
#include <fmt/format.h>

#include "serving/request_trace.h"
#include "serving/text_lines.h"
#include "trace/text.h"

namespace boreas::serving {

namespace {

constexpr std::string_view kHeader = "TIMESTAMP,ContextTokens,GeneratedTokens";

Status row_error(const std::string& file, size_t line, std::string_view what) {
  return invalid_argument(fmt::format("{}{}; rows are 'YYYY-MM-DD HH:MM:SS.fraction,<prompt tokens>,<output tokens>' "
                                      "sorted by time (data/traces/azure-llm-inference-2023/SOURCE.md)",
                                      where(file, line), what));
}

// One data row into *out (arrival in absolute microseconds).
Status parse_row(std::string_view line, const std::string& file, size_t line_no, Request* out, int64_t* abs_us) {
  const auto f = split_commas(line);
  if (f.size() != 3) {
    return row_error(file, line_no, fmt::format("expected 3 fields, found {}", f.size()));
  }
  const auto t = trace::parse_datetime(f[0]);
  if (!t) {
    return row_error(file, line_no, fmt::format("TIMESTAMP '{}' is not a date and time", f[0]));
  }
  const auto in = trace::parse_int(f[1]);
  if (!in || *in < 1 || *in > INT32_MAX) {
    return row_error(file, line_no, fmt::format("ContextTokens '{}' is not a positive integer", f[1]));
  }
  const auto gen = trace::parse_int(f[2]);
  if (!gen || *gen < 1 || *gen > INT32_MAX) {
    return row_error(file, line_no, fmt::format("GeneratedTokens '{}' is not a positive integer", f[2]));
  }
  *abs_us = t->us();
  out->input_tokens = static_cast<int32_t>(*in);
  out->output_tokens = static_cast<int32_t>(*gen);
  return Status::ok();
}

}  // namespace

Result<RequestTrace> parse_azure_llm_csv(std::string_view text, const std::string& file) {
  RequestTrace trace;
  trace.format = "azure-llm";
  Status status;
  int64_t first_us = 0;
  int64_t last_us = 0;
  for_each_line(text, [&](size_t line_no, std::string_view line) {
    if (line_no == 1) {
      if (line != kHeader) {
        status = invalid_argument(fmt::format("{}the header is '{}', expected '{}'", where(file, 1), line, kHeader));
      }
      return status.is_ok();
    }
    if (line.empty()) {
      return true;
    }
    Request r;
    int64_t abs_us = 0;
    status = parse_row(line, file, line_no, &r, &abs_us);
    if (status.is_ok() && !trace.requests.empty() && abs_us < last_us) {
      status = row_error(file, line_no, "the timestamp is earlier than the row before");
    }
    if (!status.is_ok()) {
      return false;
    }
    first_us = trace.requests.empty() ? abs_us : first_us;
    last_us = abs_us;
    r.arrival_us = abs_us - first_us;
    trace.requests.push_back(r);
    return true;
  });
  if (!status.is_ok()) {
    return status;
  }
  if (trace.requests.empty()) {
    return invalid_argument(where(file, 1) + "no requests after the header");
  }
  return trace;
}

}  // namespace boreas::serving
