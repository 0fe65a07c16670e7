// Standard Workload Format (Parallel Workloads Archive): 18 whitespace-separated fields, ';'
// header comments, -1 for unknown. Each processor becomes one GPU (docs/formats/readers.md).
#include "trace/readers.h"

namespace boreas::trace {
namespace {

constexpr size_t kSwfFields = 18;
enum SwfField : size_t { kJob = 0, kSubmit = 1, kRun = 3, kAllocProcs = 4, kReqProcs = 7, kReqTime = 8, kUser = 11, kQueue = 14 };

void split_ws(std::string_view line, Fields& out) {
  out.clear();
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
      ++i;
    }
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') {
      ++i;
    }
    if (i > start) {
      out.push_back(line.substr(start, i - start));
    }
  }
}

std::string_view known(std::string_view s) { return s == "-1" ? std::string_view() : s; }

std::optional<RowError> read_job(const Fields& f, JobSpec& job, std::string& excluded, SymbolTable& symbols) {
  Duration submit;
  if (auto e = get_seconds("submit time (2)", f[kSubmit], submit)) {
    return e;
  }
  job.submit = Time::zero() + submit;
  if (f[kRun] == "-1") {
    excluded = "run time unknown (-1)";
    return std::nullopt;
  }
  if (auto e = get_seconds("run time (4)", f[kRun], job.duration)) {
    return e;
  }
  int64_t procs = 0;
  const bool alloc = f[kAllocProcs] != "-1";
  if (auto e = get_count(alloc ? "allocated processors (5)" : "requested processors (8)",
                         alloc ? f[kAllocProcs] : f[kReqProcs], 1 << 24, procs)) {
    return e;
  }
  if (f[kReqTime] != "-1") {
    if (auto e = get_seconds("requested time (9)", f[kReqTime], job.time_limit)) {
      return e;
    }
  }
  job.gpus = static_cast<uint32_t>(procs);
  job.name = symbols.add(f[kJob]);
  job.user = symbols.intern(known(f[kUser]));
  job.queue = symbols.intern(known(f[kQueue]));
  return std::nullopt;
}

// Handles one line (the first comes from the header slot, the rest from the reader).
Status swf_line(std::string_view line, uint64_t n, Fields& fields, TraceBuilder& builder) {
  const std::string_view t = trim(line);
  if (t.empty() || t.front() == ';') {
    return Status::ok();
  }
  builder.count_line();
  split_ws(t, fields);
  JobSpec job;
  std::string excluded;
  if (fields.size() != kSwfFields) {
    return builder.take(n, RowError{"expected 18 whitespace-separated SWF fields", std::string(t)}, job, excluded);
  }
  const auto error = read_job(fields, job, excluded, builder.symbols());
  return builder.take(n, error, job, excluded);
}

}  // namespace

Status read_swf(ReaderInput& in) {
  Fields fields;
  BOREAS_RETURN_IF_ERROR(swf_line(in.header, 1, fields, in.builder));
  std::string_view line;
  while (in.lines.next(line)) {
    BOREAS_RETURN_IF_ERROR(swf_line(line, in.lines.line_number(), fields, in.builder));
  }
  return in.lines.status();
}

}  // namespace boreas::trace
