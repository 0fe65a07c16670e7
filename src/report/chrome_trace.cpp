#include "report/chrome_trace.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "report/io.h"

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

// Node name -> track id (1-based), in name order so tracks sort the way people read racks.
std::map<std::string, int64_t> node_tracks(const std::vector<JobRun>& runs) {
  std::map<std::string, int64_t> tracks;
  for (const auto& run : runs) {
    for (const auto& node : run.nodes) {
      tracks.emplace(node, 0);
    }
  }
  int64_t next = 1;
  for (auto& [name, tid] : tracks) {
    tid = next++;
  }
  return tracks;
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

void write_metadata(EventWriter& events, int64_t pid, const PolicySchedule& schedule,
                    const std::map<std::string, int64_t>& tracks) {
  events.next() << R"({"ph":"M","name":"process_name","pid":)" << pid << R"(,"tid":0,"args":{"name":)"
                << quoted("policy " + schedule.policy) << "}}";
  events.next() << R"({"ph":"M","name":"process_sort_index","pid":)" << pid
                << R"(,"tid":0,"args":{"sort_index":)" << pid << "}}";
  for (const auto& [node, tid] : tracks) {
    events.next() << R"({"ph":"M","name":"thread_name","pid":)" << pid << R"(,"tid":)" << tid
                  << R"(,"args":{"name":)" << quoted(node) << "}}";
    events.next() << R"({"ph":"M","name":"thread_sort_index","pid":)" << pid << R"(,"tid":)" << tid
                  << R"(,"args":{"sort_index":)" << tid << "}}";
  }
}

void write_run(std::ostream& out, int64_t pid, int64_t tid, const JobRun& run) {
  out << R"({"ph":"X","name":"job )" << run.job_id << R"(","cat":)" << quoted(run.end_reason)
      << R"(,"pid":)" << pid << R"(,"tid":)" << tid << R"(,"ts":)" << run.start_us << R"(,"dur":)"
      << (run.end_us - run.start_us) << R"(,"args":{"job_id":)" << run.job_id << R"(,"run":)" << run.run
      << R"(,"gpus":)" << run.gpus << R"(,"nodes":)" << run.nodes.size() << R"(,"end_reason":)"
      << quoted(run.end_reason) << "}}";
}

}  // namespace

void write_chrome_trace(std::ostream& out, const std::vector<PolicySchedule>& schedules) {
  out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  EventWriter events(out);
  for (size_t p = 0; p < schedules.size(); ++p) {
    const auto pid = static_cast<int64_t>(p + 1);
    const auto tracks = node_tracks(schedules[p].runs);
    write_metadata(events, pid, schedules[p], tracks);
    for (const auto& run : schedules[p].runs) {
      for (const auto& node : run.nodes) {
        write_run(events.next(), pid, tracks.at(node), run);
      }
    }
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
  return write_text_file(out_path, [&](std::ostream& out) { write_chrome_trace(out, *schedules); });
}

}  // namespace boreas::report
