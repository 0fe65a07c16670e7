#include "cli/job_table.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>

#include "cli/client.h"
#include "core/duration.h"
#include "core/job_states.h"

namespace boreas::cli {
namespace {

using nlohmann::json;
using Cell = std::function<std::string(const json&, int64_t)>;


int64_t field_us(const json& job, const char* key) {
  return job.contains(key) && job[key].is_number() ? job[key].get<int64_t>() : 0;
}

std::string elapsed(const json& job, int64_t now_us) {
  const int64_t start = field_us(job, "start_us");
  const int64_t end = job.value("state", "") == "running" ? now_us : field_us(job, "end_us");
  return format_slurm_duration(Duration::micros(start == 0 || end < start ? 0 : end - start));
}

// A running job Slurm still keeps pending shows Slurm's reason, as squeue would: "(Slurm: Resources)".
std::string node_or_reason(const json& job) {
  if (job.contains("executor_wait")) {
    return "(" + cell(job, "executor_wait") + ")";
  }
  return job.value("state", "") == "running" ? cell(job, "node") : "(" + cell(job, "reason") + ")";
}

std::string command_line(const json& job) {
  std::string out;
  for (const auto& w : job["request"].value("command", json::array())) {
    out += (out.empty() ? "" : " ") + terminal_safe(w.is_string() ? w.get<std::string>() : w.dump());
  }
  return out;
}

// "2", a share "0.5", with a share's GPU memory (MiB, as asked) "0.5/20480M".
std::string gpus_cell(const json& j, int64_t) {
  const json& r = j["request"];
  const std::string gpus = cell(r, "gpus");
  return r.contains("gpu_memory") ? gpus + "/" + cell(r, "gpu_memory") + "M" : gpus;
}

std::string time_limit(const json& job) {
  const int64_t s = job["request"].value("time_limit_s", int64_t{0});
  return s == 0 ? "UNLIMITED" : format_slurm_duration(Duration::seconds(s));
}

struct ColumnDef {
  JobColumn column;
  Cell value;
};

const std::vector<ColumnDef>& all_columns() {
  static const std::vector<ColumnDef> defs = {
      {{"id", "JOBID"}, [](const json& j, int64_t) { return cell(j, "id"); }},
      {{"name", "NAME"}, [](const json& j, int64_t) { return cell(j["request"], "name"); }},
      {{"user", "USER"}, [](const json& j, int64_t) { return cell(j, "owner"); }},
      {{"queue", "QUEUE"}, [](const json& j, int64_t) { return cell(j["request"], "queue"); }},
      {{"state", "STATE"}, [](const json& j, int64_t) { return cell(j, "state"); }},
      {{"time", "TIME"}, elapsed},
      {{"gpus", "GPUS"}, gpus_cell},
      {{"nodelist", "NODELIST(REASON)"}, [](const json& j, int64_t) { return node_or_reason(j); }},
      {{"gpu_type", "GPU_TYPE"}, [](const json& j, int64_t) { return cell(j["request"], "gpu_type"); }},
      {{"qos", "QOS"}, [](const json& j, int64_t) { return cell(j["request"], "priority_class"); }},
      {{"time_limit", "TIME_LIMIT"}, [](const json& j, int64_t) { return time_limit(j); }},
      {{"submit_time", "SUBMIT_TIME"}, [](const json& j, int64_t) { return format_utc(field_us(j, "submit_us")); }},
      {{"start_time", "START_TIME"}, [](const json& j, int64_t) { return format_utc(field_us(j, "start_us")); }},
      {{"exit", "EXIT"}, [](const json& j, int64_t) { return cell(j, "exit_code"); }},
      {{"node", "NODE"}, [](const json& j, int64_t) { return cell(j, "node"); }},
      {{"reason", "REASON"}, [](const json& j, int64_t) { return cell(j, "reason"); }},
      {{"command", "COMMAND"}, [](const json& j, int64_t) { return command_line(j); }},
  };
  return defs;
}

const ColumnDef* find_column(const std::string& key) {
  for (const ColumnDef& d : all_columns()) {
    if (d.column.key == key) {
      return &d;
    }
  }
  return nullptr;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  size_t from = 0;
  while (from <= list.size()) {
    const size_t comma = std::min(list.find(',', from), list.size());
    out.push_back(list.substr(from, comma - from));
    from = comma + 1;
  }
  return out;
}

}  // namespace

Result<std::vector<JobColumn>> job_columns(const std::string& format) {
  const std::string f = lower(format);
  const std::string list = f.empty() || f == "default" ? "id,name,user,queue,state,time,gpus,nodelist"
                           : f == "wide" ? "id,name,user,queue,qos,state,time,time_limit,gpus,gpu_type,"
                                           "submit_time,exit,nodelist,command"
                                         : f;
  std::vector<JobColumn> out;
  for (const std::string& key : split(list)) {
    const ColumnDef* d = find_column(key);
    if (d == nullptr) {
      std::string known;
      for (const ColumnDef& def : all_columns()) {
        known += (known.empty() ? "" : ",") + def.column.key;
      }
      return invalid_argument("--format " + terminal_safe(format) + ": unknown column `" + terminal_safe(key) +
                              "`; use wide, json, yaml or a comma-separated list of: " + known);
    }
    out.push_back(d->column);
  }
  return out;
}

std::vector<std::string> job_cells(const json& job, const std::vector<JobColumn>& columns, int64_t now_us) {
  std::vector<std::string> row;
  for (const JobColumn& c : columns) {
    row.push_back(find_column(c.key)->value(job, now_us));
  }
  return row;
}

Result<std::vector<std::string>> states_to_show(const std::string& states, bool all) {
  std::vector<std::string> out;
  if (states.empty()) {
    for (const JobStateName& s : kJobStateNames) {
      if (!all && !is_terminal(s.state)) {
        out.emplace_back(s.name);
      }
    }
    return out;
  }
  for (const std::string& s : split(lower(states))) {
    if (!parse_job_state(s)) {
      return invalid_argument("--state " + terminal_safe(states) + ": unknown state `" + terminal_safe(s) +
                              "`; valid states: " + job_state_names());
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace boreas::cli
