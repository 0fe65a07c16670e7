#include "report/chrome_trace.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "report/io.h"
#include "report/track_lanes.h"

namespace boreas::report {
namespace fs = std::filesystem;

Result<PolicySchedule> read_policy_schedule(const std::string& dir_text) {
  const fs::path dir(dir_text);
  auto summary = read_summary((dir / "summary.json").string(), (dir.filename() / "summary.json").string());
  if (!summary.is_ok()) {
    return summary.status();
  }
  auto table = CsvTable::read_file((dir / "runs.csv").string(), (dir.filename() / "runs.csv").string());
  if (!table.is_ok()) {
    return table.status();
  }
  auto runs = read_runs(*table);
  if (!runs.is_ok()) {
    return runs.status();
  }
  const auto policy = summary->find("policy");
  PolicySchedule schedule;
  schedule.policy = policy != summary->end() && policy->is_string() ? policy->get<std::string>()
                                                                      : dir.filename().string();
  schedule.runs = std::move(*runs);
  return schedule;
}

namespace {

std::string quoted(const std::string& text) { return nlohmann::json(text).dump(); }

// Track ids (1-based) per node lane: nodes in name order, so tracks sort the way people read
// racks, and a node's lanes next to each other.
std::vector<int64_t> first_tids(const LanePlan& plan) {
  std::vector<int64_t> first;
  int64_t next = 1;
  for (const auto& node : plan.nodes) {
    first.push_back(next);
    next += node.lanes;
  }
  return first;
}

// Writes events into the traceEvents array with the commas between them.
class EventWriter {
 public:
  explicit EventWriter(std::ostream& out) : out_(out) {}
  std::ostream& next() {
    out_ << (first_ ? "" : ",\n");
    first_ = false;
    return out_;
  }

 private:
  std::ostream& out_;
  bool first_ = true;
};

std::string lane_name(const NodeLanes& node, int64_t lane) {
  return node.lanes == 1 ? node.node : node.node + " #" + std::to_string(lane + 1);
}

void write_metadata(EventWriter& events, int64_t pid, const PolicySchedule& schedule, const LanePlan& plan,
                    const std::vector<int64_t>& first_tid) {
  events.next() << R"({"ph":"M","name":"process_name","pid":)" << pid << R"(,"tid":0,"args":{"name":)"
                << quoted("policy " + schedule.policy) << "}}";
  events.next() << R"({"ph":"M","name":"process_sort_index","pid":)" << pid
                << R"(,"tid":0,"args":{"sort_index":)" << pid << "}}";
  for (size_t n = 0; n < plan.nodes.size(); ++n) {
    for (int64_t lane = 0; lane < plan.nodes[n].lanes; ++lane) {
      const int64_t tid = first_tid[n] + lane;
      events.next() << R"({"ph":"M","name":"thread_name","pid":)" << pid << R"(,"tid":)" << tid
                    << R"(,"args":{"name":)" << quoted(lane_name(plan.nodes[n], lane)) << "}}";
      events.next() << R"({"ph":"M","name":"thread_sort_index","pid":)" << pid << R"(,"tid":)" << tid
                    << R"(,"args":{"sort_index":)" << tid << "}}";
    }
  }
}

void write_run(std::ostream& out, int64_t pid, int64_t tid, const JobRun& run) {
  out << R"({"ph":"X","name":"job )" << run.job_id << R"(","cat":)" << quoted(run.end_reason)
      << R"(,"pid":)" << pid << R"(,"tid":)" << tid << R"(,"ts":)" << run.start_us << R"(,"dur":)"
      << (run.end_us - run.start_us) << R"(,"args":{"job_id":)" << run.job_id << R"(,"run":)" << run.run
      << R"(,"gpus":)" << run.gpus << "}}";
}

// Node name -> index in plan.nodes.
std::map<std::string, size_t> node_index(const LanePlan& plan) {
  std::map<std::string, size_t> index;
  for (size_t n = 0; n < plan.nodes.size(); ++n) {
    index.emplace(plan.nodes[n].node, n);
  }
  return index;
}

void write_policy(EventWriter& events, int64_t pid, const PolicySchedule& schedule) {
  const LanePlan plan = plan_lanes(schedule.runs);
  const auto first_tid = first_tids(plan);
  const auto index = node_index(plan);
  write_metadata(events, pid, schedule, plan, first_tid);
  for (size_t r = 0; r < schedule.runs.size(); ++r) {
    const JobRun& run = schedule.runs[r];
    for (size_t k = 0; k < run.nodes.size(); ++k) {
      write_run(events.next(), pid, first_tid[index.at(run.nodes[k])] + plan.lane[r][k], run);
    }
  }
}

}  // namespace

void write_chrome_trace(std::ostream& out, const std::vector<PolicySchedule>& schedules) {
  out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  EventWriter events(out);
  for (size_t p = 0; p < schedules.size(); ++p) {
    write_policy(events, static_cast<int64_t>(p + 1), schedules[p]);
  }
  out << "\n]}\n";
}

Status write_schedule_trace(const std::vector<std::string>& run_dirs, const std::string& out_path) {
  auto dirs = find_policy_dirs(run_dirs);
  if (!dirs.is_ok()) {
    return dirs.status();
  }
  auto schedules = read_each<PolicySchedule>(*dirs, read_policy_schedule);
  if (!schedules.is_ok()) {
    return schedules.status();
  }
  const auto write = [&](std::ostream& out) { write_chrome_trace(out, *schedules); };
  return out_path.ends_with(".gz") ? write_gzip_file(out_path, write) : write_text_file(out_path, write);
}

}  // namespace boreas::report
