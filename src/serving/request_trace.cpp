#include "serving/request_trace.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>

#include "serving/text_lines.h"

namespace boreas::serving {

Result<std::string> read_text(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");  // reads plain files as they are
  if (f == nullptr) {
    return io_error(fmt::format("{}: cannot open the file; check the path", path));
  }
  std::string out;
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(f, buf, sizeof(buf))) > 0) {
    out.append(buf, static_cast<size_t>(n));
  }
  const bool failed = n < 0;
  gzclose(f);
  if (failed) {
    return io_error(fmt::format("{}: the file is not readable gzip; re-download or gunzip it", path));
  }
  return out;
}

Result<RequestTrace> parse_request_trace(std::string_view text, const std::string& file) {
  const std::string_view first = text.substr(0, text.find('\n'));
  if (first.starts_with("TIMESTAMP,")) {
    return parse_azure_llm_csv(text, file);
  }
  if (first.starts_with("{")) {
    return parse_mooncake_jsonl(text, file);
  }
  if (first.starts_with("instance_sn,")) {
    return invalid_argument(file + ":1: this is the Alibaba DLRM instance trace: it lists service instances, not "
                                   "requests; give a request trace (Azure LLM CSV or Mooncake JSONL) and put the "
                                   "DLRM model in the --service spec (docs/serving.md)");
  }
  return invalid_argument(fmt::format("{}:1: unknown request trace format (first line '{}'); expected the Azure LLM "
                                      "CSV header 'TIMESTAMP,ContextTokens,GeneratedTokens' or Mooncake JSON lines",
                                      file, first.substr(0, 80)));
}

Result<RequestTrace> read_request_trace(const std::string& path) {
  auto text = read_text(path);
  if (!text.is_ok()) {
    return text.status();
  }
  return parse_request_trace(*text, path);
}

namespace {

double median(std::vector<int32_t> v) {
  if (v.empty()) {
    return 0;
  }
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double hi = v[mid];
  if (v.size() % 2 == 1) {
    return hi;
  }
  const double lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lo + hi) / 2;
}

}  // namespace

Result<RequestTrace> trace_window(const RequestTrace& trace, double from_s, double to_s, const std::string& file) {
  const auto from = static_cast<int64_t>(std::llround(from_s * 1e6));
  const auto to = static_cast<int64_t>(std::llround(to_s * 1e6));
  RequestTrace out;
  out.format = trace.format;
  out.block_tokens = trace.block_tokens;
  out.blocks = trace.blocks;
  for (const auto& r : trace.requests) {
    if (r.arrival_us >= from && r.arrival_us < to) {
      out.requests.push_back(r);
      out.requests.back().arrival_us -= from;
    }
  }
  if (out.requests.size() < 2) {
    const double span = trace.requests.empty() ? 0 : static_cast<double>(trace.requests.back().arrival_us) / 1e6;
    return invalid_argument(fmt::format("{}: the window {}:{} s holds {} requests; the trace's arrivals span 0:{:.0f} s, "
                                        "pick a window inside it",
                                        file, from_s, to_s, out.requests.size(), span));
  }
  return out;
}

TraceStats trace_stats(const RequestTrace& trace) {
  TraceStats s;
  s.requests = trace.requests.size();
  if (s.requests == 0) {
    return s;
  }
  std::vector<int32_t> in;
  std::vector<int32_t> out;
  double sum_in = 0;
  double sum_out = 0;
  for (const auto& r : trace.requests) {
    in.push_back(r.input_tokens);
    out.push_back(r.output_tokens);
    sum_in += r.input_tokens;
    sum_out += r.output_tokens;
  }
  s.mean_input = sum_in / static_cast<double>(s.requests);
  s.mean_output = sum_out / static_cast<double>(s.requests);
  s.median_input = median(std::move(in));
  s.median_output = median(std::move(out));
  s.duration_s = static_cast<double>(trace.requests.back().arrival_us - trace.requests.front().arrival_us) / 1e6;
  return s;
}

}  // namespace boreas::serving
