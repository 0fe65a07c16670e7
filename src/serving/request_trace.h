#pragma once
// Request-level serving traces: one row per inference request (arrival, prompt and output tokens,
// and, where the trace has them, the hashes of its prompt's prefix blocks). docs/serving.md.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace boreas::serving {

struct Request {
  int64_t arrival_us = 0;     // from the trace's first request
  int32_t input_tokens = 0;   // prompt (context) tokens
  int32_t output_tokens = 0;  // generated tokens (>= 1)
  uint32_t first_block = 0;   // index of its first prefix-block hash in RequestTrace::blocks
  uint32_t block_count = 0;   // 0 when the trace has no block hashes
};

// Requests sorted by arrival. Block hashes of all requests are stored back to back.
struct RequestTrace {
  std::string format;        // "azure-llm", "mooncake"
  int32_t block_tokens = 0;  // tokens per prefix block; 0 = the trace has no block hashes
  std::vector<Request> requests;
  std::vector<uint64_t> blocks;

  std::span<const uint64_t> blocks_of(const Request& r) const {
    return {blocks.data() + r.first_block, r.block_count};
  }
};

// Reads a whole file, gunzipping it when it ends in .gz.
Result<std::string> read_text(const std::string& path);

// Reads a request trace, choosing the format from its first line: the Azure LLM inference CSV
// header, or a Mooncake JSON object. The Alibaba DLRM instance trace is refused with a hint (it
// has no requests). Every error names file:line.
Result<RequestTrace> read_request_trace(const std::string& path);
Result<RequestTrace> parse_request_trace(std::string_view text, const std::string& file);

// Parsers by format, on whole file contents; `file` is used in messages.
Result<RequestTrace> parse_azure_llm_csv(std::string_view text, const std::string& file);
Result<RequestTrace> parse_mooncake_jsonl(std::string_view text, const std::string& file);

// The requests arriving in [from_s, to_s) seconds after the trace's first, their arrivals counted
// from from_s; block hashes kept. Errors (naming `file`) when the window holds fewer than two
// requests, which have no rate.
Result<RequestTrace> trace_window(const RequestTrace& trace, double from_s, double to_s, const std::string& file);

// Summary figures of a request trace (tests, `--stats`).
struct TraceStats {
  size_t requests = 0;
  double mean_input = 0;
  double mean_output = 0;
  double median_input = 0;
  double median_output = 0;
  double duration_s = 0;
};
TraceStats trace_stats(const RequestTrace& trace);

}  // namespace boreas::serving
