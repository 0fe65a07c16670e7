#pragma once
// One policy's saved simulator output (docs/formats/sim-output.md), read into memory: the
// summary, the job completion times, the time series and the job runs.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "report/csv.h"
#include "report/job_rows.h"

namespace boreas::report {

// From jobs.csv: what the charts need, not every column.
struct JobsData {
  std::vector<double> jct_s;  // jobs that ended; in file order
  int64_t jobs = 0;
  int64_t unfinished = 0;  // rows with an empty jct_s
  // GPU-seconds per queue, in order of first appearance.
  std::vector<std::pair<std::string, double>> gpu_seconds_by_queue;
  std::vector<JobRow> rows;  // every job, in file order (the drill-down and the headline's notes)
};

// From timeseries.csv: one vector per column, all of the same length as `time_s`.
struct TimeSeries {
  std::vector<double> time_s;
  std::vector<std::string> names;           // every column but time_s, in file order
  std::vector<std::vector<double>> values;  // values[i] belongs to names[i]; NaN where empty
  const std::vector<double>* column(std::string_view name) const;
};

// From runs.csv: one contiguous run of a job on fixed nodes.
struct JobRun {
  int64_t job_id = 0;
  int64_t run = 0;
  int64_t start_us = 0;
  int64_t end_us = 0;
  int64_t gpus = 0;
  std::vector<std::string> nodes;
  std::string end_reason;
};

struct PolicyRun {
  std::string name;  // summary.json's "policy", else the folder name
  std::string dir;
  nlohmann::json summary;
  JobsData jobs;
  TimeSeries series;
  std::vector<JobRun> runs;
};

Result<nlohmann::json> read_summary(const std::string& path, const std::string& label);
Result<JobsData> read_jobs(const CsvTable& table);
Result<TimeSeries> read_timeseries(const CsvTable& table);
Result<std::vector<JobRun>> read_runs(const CsvTable& table);

// Reads one policy folder (summary.json, jobs.csv, timeseries.csv, runs.csv).
Result<PolicyRun> read_policy_run(const std::string& dir);
// Each dir is a policy folder, or a folder of policy folders (as `boreas sim --out DIR` writes);
// returns the policies in the order given, subfolders sorted by name.
Result<std::vector<PolicyRun>> read_run_dirs(const std::vector<std::string>& dirs);
// The policy folders that `dirs` name, without reading them.
Result<std::vector<std::string>> find_policy_dirs(const std::vector<std::string>& dirs);

}  // namespace boreas::report
