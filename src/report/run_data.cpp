#include "report/run_data.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

#include "report/io.h"

namespace boreas::report {
namespace fs = std::filesystem;

const std::vector<double>* TimeSeries::column(std::string_view name) const {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) {
      return &values[i];
    }
  }
  return nullptr;
}

Result<nlohmann::json> read_summary(const std::string& path, const std::string& label) {
  std::ifstream in(path);
  if (!in) {
    return io_error(path + ": cannot open the file; is this a `boreas sim --out` policy folder?");
  }
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    return invalid_argument(label + ": not valid JSON; re-run the simulation to rewrite it");
  }
  if (!doc.is_object()) {
    return invalid_argument(label + ": expected a JSON object at the top level");
  }
  return doc;
}

namespace {

void add_queue_gpu_seconds(JobsData& data, std::string_view queue, double gpu_seconds) {
  for (auto& [name, total] : data.gpu_seconds_by_queue) {
    if (name == queue) {
      total += gpu_seconds;
      return;
    }
  }
  data.gpu_seconds_by_queue.emplace_back(std::string(queue), gpu_seconds);
}

}  // namespace

Result<JobsData> read_jobs(const CsvTable& table) {
  auto jct = table.require_column("jct_s");
  auto queue = table.require_column("queue");
  auto gpu_seconds = table.require_column("gpu_seconds");
  for (const auto* col : {&jct, &queue, &gpu_seconds}) {
    if (!col->is_ok()) {
      return col->status();
    }
  }
  JobsData data;
  data.jobs = static_cast<int64_t>(table.row_count());
  for (size_t r = 0; r < table.row_count(); ++r) {
    auto value = table.optional_number(r, *jct);
    auto used = table.number(r, *gpu_seconds);
    if (!value.is_ok()) {
      return value.status();
    }
    if (!used.is_ok()) {
      return used.status();
    }
    if (value->has_value()) {
      data.jct_s.push_back(**value);
    } else {
      ++data.unfinished;
    }
    add_queue_gpu_seconds(data, table.cell(r, *queue), *used);
  }
  auto rows = read_job_rows(table);
  if (!rows.is_ok()) {
    return rows.status();
  }
  data.rows = std::move(*rows);
  return data;
}

Result<TimeSeries> read_timeseries(const CsvTable& table) {
  auto time = table.require_column("time_s");
  if (!time.is_ok()) {
    return time.status();
  }
  for (const char* needed : {"allocated_gpus", "pending_gpus"}) {
    if (auto col = table.require_column(needed); !col.is_ok()) {
      return col.status();
    }
  }
  TimeSeries series;
  std::vector<size_t> cols;
  for (size_t c = 0; c < table.header().size(); ++c) {
    if (c != *time) {
      series.names.push_back(table.header()[c]);
      series.values.emplace_back();
      cols.push_back(c);
    }
  }
  for (size_t r = 0; r < table.row_count(); ++r) {
    auto t = table.number(r, *time);
    if (!t.is_ok()) {
      return t.status();
    }
    series.time_s.push_back(*t);
    for (size_t i = 0; i < cols.size(); ++i) {
      auto v = table.optional_number(r, cols[i]);
      if (!v.is_ok()) {
        return v.status();
      }
      series.values[i].push_back(v->value_or(std::numeric_limits<double>::quiet_NaN()));
    }
  }
  return series;
}

namespace {

std::vector<std::string> split_nodes(std::string_view text) {
  std::vector<std::string> nodes;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(';', start), text.size());
    if (end > start) {
      nodes.emplace_back(text.substr(start, end - start));
    }
    start = end + 1;
  }
  return nodes;
}

Result<JobRun> read_run_row(const CsvTable& table, size_t r, const std::vector<size_t>& c) {
  JobRun run;
  auto job = table.number(r, c[0]);
  auto index = table.number(r, c[1]);
  auto start = table.micros(r, c[2]);
  // A run still going when the simulation stopped has an empty end_s (closed in read_runs).
  const bool open = table.cell(r, c[3]).empty();
  auto end = open ? Result<int64_t>(*start) : table.micros(r, c[3]);
  auto gpus = table.number(r, c[5]);
  for (const auto* v : {&job, &index, &gpus}) {
    if (!v->is_ok()) {
      return v->status();
    }
  }
  if (!start.is_ok()) {
    return start.status();
  }
  if (!end.is_ok()) {
    return end.status();
  }
  if (*end < *start) {
    return invalid_argument(table.where(r) + "end_s is before start_s; a run cannot end before it starts");
  }
  run.job_id = static_cast<int64_t>(*job);
  run.run = static_cast<int64_t>(*index);
  run.start_us = *start;
  run.end_us = *end;
  run.gpus = static_cast<int64_t>(*gpus);
  run.nodes = split_nodes(table.cell(r, c[4]));
  run.end_reason = open ? std::string("running") : std::string(table.cell(r, c[6]));
  return run;
}

// Runs without an end last until the latest time the file knows of.
void close_open_runs(std::vector<JobRun>& runs) {
  int64_t horizon = 0;
  for (const auto& run : runs) {
    horizon = std::max({horizon, run.start_us, run.end_us});
  }
  for (auto& run : runs) {
    if (run.end_reason == "running") {
      run.end_us = horizon;
    }
  }
}

}  // namespace

Result<std::vector<JobRun>> read_runs(const CsvTable& table) {
  std::vector<size_t> cols;
  for (const char* name : {"job_id", "run", "start_s", "end_s", "nodes", "gpus", "end_reason"}) {
    auto col = table.require_column(name);
    if (!col.is_ok()) {
      return col.status();
    }
    cols.push_back(*col);
  }
  std::vector<JobRun> runs;
  runs.reserve(table.row_count());
  for (size_t r = 0; r < table.row_count(); ++r) {
    auto run = read_run_row(table, r, cols);
    if (!run.is_ok()) {
      return run.status();
    }
    runs.push_back(std::move(*run));
  }
  close_open_runs(runs);
  return runs;
}

namespace {

// "fifo/jobs.csv": the folder name keeps messages short but unambiguous across policies.
std::string label_of(const fs::path& dir, const char* file) {
  return (dir.filename() / file).string();
}

template <typename T, typename Reader>
Status read_csv_into(const fs::path& dir, const char* file, Reader reader, T& out) {
  auto table = CsvTable::read_file((dir / file).string(), label_of(dir, file));
  if (!table.is_ok()) {
    return table.status();
  }
  auto value = reader(*table);
  if (!value.is_ok()) {
    return value.status();
  }
  out = std::move(*value);
  return Status::ok();
}

}  // namespace

Result<PolicyRun> read_policy_run(const std::string& dir_text) {
  const fs::path dir = fs::path(dir_text).lexically_normal();
  PolicyRun run;
  run.dir = dir.string();
  auto summary = read_summary((dir / "summary.json").string(), label_of(dir, "summary.json"));
  if (!summary.is_ok()) {
    return summary.status();
  }
  run.summary = std::move(*summary);
  const auto policy = run.summary.find("policy");
  run.name = policy != run.summary.end() && policy->is_string() ? policy->get<std::string>()
                                                                : dir.filename().string();
  BOREAS_RETURN_IF_ERROR(read_csv_into(dir, "jobs.csv", read_jobs, run.jobs));
  BOREAS_RETURN_IF_ERROR(read_csv_into(dir, "timeseries.csv", read_timeseries, run.series));
  BOREAS_RETURN_IF_ERROR(read_csv_into(dir, "runs.csv", read_runs, run.runs));
  return run;
}

Result<std::vector<std::string>> find_policy_dirs(const std::vector<std::string>& dirs) {
  std::vector<std::string> found;
  for (const auto& d : dirs) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) {
      return not_found(d + ": not a folder; pass a `boreas sim --out` folder or one policy folder in it");
    }
    if (fs::exists(fs::path(d) / "summary.json", ec)) {
      found.push_back(d);
      continue;
    }
    std::vector<std::string> subs;
    for (const auto& entry : fs::directory_iterator(d, ec)) {
      if (entry.is_directory() && fs::exists(entry.path() / "summary.json")) {
        subs.push_back(entry.path().string());
      }
    }
    if (subs.empty()) {
      return not_found(d + ": no summary.json in it or in its subfolders; is it a `boreas sim --out` folder?");
    }
    std::sort(subs.begin(), subs.end());
    found.insert(found.end(), subs.begin(), subs.end());
  }
  return found;
}

namespace {

// Runs of one policy under different placements (e.g. fifo with pack and with cool) would share a
// name in every chart: such runs are named "policy/placement".
void name_by_placement_when_shared(std::vector<PolicyRun>& runs) {
  std::map<std::string, int> count;
  for (const PolicyRun& r : runs) {
    ++count[r.name];
  }
  for (PolicyRun& r : runs) {
    const auto placement = r.summary.find("placement");
    if (count[r.name] > 1 && placement != r.summary.end() && placement->is_string()) {
      r.name += "/" + placement->get<std::string>();
    }
  }
}

}  // namespace

Result<std::vector<PolicyRun>> read_run_dirs(const std::vector<std::string>& dirs) {
  auto policy_dirs = find_policy_dirs(dirs);
  if (!policy_dirs.is_ok()) {
    return policy_dirs.status();
  }
  auto runs = read_each<PolicyRun>(*policy_dirs, read_policy_run);
  if (runs.is_ok()) {
    name_by_placement_when_shared(*runs);
  }
  return runs;
}

}  // namespace boreas::report
