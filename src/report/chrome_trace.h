#pragma once
// The schedule export in the Trace Event Format (docs/formats/schedule-trace.md), for Perfetto or
// chrome://tracing: one process per policy, one track (thread) per node lane (a node shared by
// runs at once has one lane per concurrent run, so slices on a track never overlap), one complete
// event ("ph":"X", ts/dur in µs) per job run on each node it used, and metadata events naming them.
// A path ending in `.gz` is written gzip-compressed (Perfetto opens it as is).

#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "report/run_data.h"

namespace boreas::report {

struct PolicySchedule {
  std::string policy;
  std::vector<JobRun> runs;
};

// Reads a policy folder's runs.csv (and its summary.json for the policy name).
Result<PolicySchedule> read_policy_schedule(const std::string& dir);

void write_chrome_trace(std::ostream& out, const std::vector<PolicySchedule>& schedules);

// `run_dirs` as for `boreas report` (run folders or policy folders); writes `out_path`.
// The simulator CLI calls this for `boreas sim --schedule-trace` after writing its output.
Status write_schedule_trace(const std::vector<std::string>& run_dirs, const std::string& out_path);

}  // namespace boreas::report
