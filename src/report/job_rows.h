#pragma once
// Every job of a policy's jobs.csv as the per-job drill-down and the headline's notes need it:
// when it was submitted, started and ended, how long it waited and why.

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "report/csv.h"

namespace boreas::report {

struct JobRow {
  int64_t id = 0;
  std::string queue;
  int64_t gpus = 0;
  double submit_s = 0;
  double first_start_s = -1;  // -1: never started
  double end_s = -1;          // -1: never ended
  double queue_s = 0;
  int64_t preemptions = 0;
  std::string state;
  std::string pending_reason;  // the policy's last reason while it waited ("" when none)
};

// Reads the rows of jobs.csv (docs/formats/sim-output.md). Runs saved before a column existed
// lack it: a missing `job_id` or `submit_s` gives no rows (the drill-down says so); other
// missing columns read as empty.
Result<std::vector<JobRow>> read_job_rows(const CsvTable& table);

}  // namespace boreas::report
