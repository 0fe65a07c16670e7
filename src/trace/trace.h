#pragma once
// A job trace in memory and the one entry point that reads any supported format.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/job.h"
#include "core/status.h"
#include "core/symbol.h"

namespace boreas::trace {

// Jobs sorted by (submit, order in the source); jobs[i].id == JobId(i). Strings live in `symbols`.
// Submit times are relative to the first job (jobs[0].submit == 0) whatever the source's clock.
struct Trace {
  SymbolTable symbols;
  std::vector<JobSpec> jobs;
  std::string format;  // the format it was read as, e.g. "philly"
};

enum class OnError { kFail, kSkip };

struct ReadOptions {
  std::string format = "auto";  // auto-detect from header and extension unless named
  std::string column_map;       // generic CSV: "submit=col,duration=col,gpus=col,..."
  OnError on_error = OnError::kFail;
};

// What was skipped with OnError::kSkip, by reason, with the first location of each.
// `excluded` counts valid lines that are not replayable jobs by design (e.g. a Slurm job that
// never started); they are reported whatever the --on-error policy.
struct ReadReport {
  uint64_t lines_read = 0;
  uint64_t jobs = 0;
  uint64_t skipped = 0;
  std::map<std::string, uint64_t> skipped_by_reason;
  std::map<std::string, std::string> first_location_by_reason;
  uint64_t excluded = 0;
  std::map<std::string, uint64_t> excluded_by_reason;
};

// Reads `path` (".gz" transparently). Errors carry "file:line: field: what was expected".
Result<Trace> read_trace_file(const std::string& path, const ReadOptions& options,
                              ReadReport* report = nullptr);
// The same from text in memory; `name` stands for the file in messages and format detection.
Result<Trace> read_trace_string(std::string_view text, const std::string& name, const ReadOptions& options,
                                ReadReport* report = nullptr);

// The names --format accepts, e.g. "philly", "csv", "native".
const std::vector<std::string>& format_names();

}  // namespace boreas::trace
