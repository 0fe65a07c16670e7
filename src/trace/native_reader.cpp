// Reads the native format, JSON Lines or CSV (docs/formats/trace.md).
#include <algorithm>

#include "trace/json_line.h"
#include "trace/native.h"
#include "trace/readers.h"

namespace boreas::trace {
namespace {

constexpr std::string_view kFormatTag = "boreas-trace";

class JsonlJobs {
 public:
  explicit JsonlJobs(TraceBuilder& builder) : builder_(builder) {}

  Status line(std::string_view text, uint64_t n) {
    if (trim(text).empty()) {
      return Status::ok();
    }
    builder_.count_line();
    JobSpec job;
    auto error = parse_json_line(text, members_, scratch_);
    if (!error && !members_.empty() && members_.front().key == "format") {
      return header(n);
    }
    if (!error) {
      error = fill(job);
    }
    if (error) {
      return builder_.row_error(n, *error);
    }
    builder_.add(job);
    return Status::ok();
  }

 private:
  Status header(uint64_t n) {
    if (members_.front().value != kFormatTag) {
      return builder_.fatal(n, "field 'format': expected 'boreas-trace', got '" +
                                   std::string(members_.front().value) + "'");
    }
    return Status::ok();
  }

  std::optional<RowError> fill(JobSpec& job) {
    bool submit = false;
    bool duration = false;
    for (const auto& m : members_) {
      if (auto e = set_native_field(m.key, m.value, job, builder_.symbols())) {
        return e;
      }
      submit = submit || m.key == "submit_us";
      duration = duration || m.key == "duration_us";
    }
    if (!submit || !duration) {
      return RowError{std::string("field '") + (submit ? "duration_us" : "submit_us") +
                          "': expected in every job",
                      ""};
    }
    return std::nullopt;
  }

  TraceBuilder& builder_;
  std::vector<JsonMember> members_;
  std::deque<std::string> scratch_;
};

}  // namespace

Status read_native_jsonl(ReaderInput& in) {
  JsonlJobs jobs(in.builder);
  BOREAS_RETURN_IF_ERROR(jobs.line(in.header, 1));
  std::string_view line;
  while (in.lines.next(line)) {
    BOREAS_RETURN_IF_ERROR(jobs.line(line, in.lines.line_number()));
  }
  return in.lines.status();
}

Status read_native_csv(ReaderInput& in) {
  const auto columns = split_header(in.header, ',');
  const auto& known = native_fields();
  for (const auto& c : columns) {
    if (std::find(known.begin(), known.end(), c) == known.end()) {
      return in.builder.fatal(1, "header: unknown column '" + c + "'; see docs/formats/trace.md");
    }
  }
  auto required = require_columns(columns, {"submit_us", "duration_us"}, in.builder);
  if (!required.is_ok()) {
    return required.status();
  }
  auto& symbols = in.builder.symbols();
  return for_each_row(in, ',', columns.size(), [&](const Fields& f, JobSpec& job, std::string&) {
    for (size_t i = 0; i < f.size(); ++i) {
      if (auto e = set_native_field(columns[i], f[i], job, symbols)) {
        return e;
      }
    }
    return std::optional<RowError>();
  });
}

}  // namespace boreas::trace
