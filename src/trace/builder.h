#pragma once
// Collects the jobs a reader produces, applies the --on-error policy to bad lines, and finishes
// the Trace: sorted by (submit, source order), dense ids, submit relative to the first job.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/job.h"
#include "core/status.h"
#include "trace/text.h"
#include "trace/trace.h"

namespace boreas::trace {

class TraceBuilder {
 public:
  TraceBuilder(std::string file, OnError on_error, ReadReport* report);

  SymbolTable& symbols() { return trace_.symbols; }
  // `job.submit` is absolute in the source's clock; finish() makes it relative.
  void add(const JobSpec& job);
  // A bad line: the located error under kFail; ok (and counted) under kSkip.
  Status row_error(uint64_t line, const RowError& error);
  // A valid line that is deliberately not a job (e.g. a Slurm job that never started).
  void exclude(uint64_t line, const std::string& reason);
  void count_line() { ++lines_read_; }
  // Whichever applies for one parsed line: the error, the exclusion (non-empty reason) or the job.
  Status take(uint64_t line, const std::optional<RowError>& error, const JobSpec& job,
              const std::string& excluded);
  // "file:line: message" for errors that stop reading whatever the policy (e.g. a bad header).
  Status fatal(uint64_t line, const std::string& message) const;
  Trace finish(std::string format);

 private:
  std::string file_;
  OnError on_error_;
  ReadReport* report_;
  ReadReport local_report_;
  uint64_t lines_read_ = 0;
  Trace trace_;
};

}  // namespace boreas::trace
