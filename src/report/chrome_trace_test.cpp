#include "report/chrome_trace.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "report/testing.h"

namespace boreas::report {
namespace {

using nlohmann::json;

json trace_of(const std::vector<std::string>& dirs) {
  const auto path = testing::scratch_dir() / "trace.json";
  const Status s = write_schedule_trace(dirs, path.string());
  EXPECT_TRUE(s.is_ok()) << s.message();
  return json::parse(testing::read_file(path));
}

std::map<std::string, int> count_by_phase_and_name(const json& trace) {
  std::map<std::string, int> counts;
  for (const auto& e : trace["traceEvents"]) {
    counts[e["ph"].get<std::string>() + ":" + (e["ph"] == "X" ? "run" : e["name"].get<std::string>())]++;
  }
  return counts;
}

TEST(ChromeTrace, OneSlicePerRunPerNodeAndNamedTracks) {
  const json trace = trace_of({testing::fixture("basic")});
  const auto counts = count_by_phase_and_name(trace);
  // Each policy: runs on 1 + 2 + 2 + 1 + 4 nodes; 4 nodes, 2 policies.
  EXPECT_EQ(counts.at("X:run"), 20);
  EXPECT_EQ(counts.at("M:process_name"), 2);
  EXPECT_EQ(counts.at("M:thread_name"), 8);
  EXPECT_EQ(trace["displayTimeUnit"], "ms");
}

TEST(ChromeTrace, CompleteEventsCarryMicrosecondsAndJob) {
  const json trace = trace_of({testing::fixture("basic/fifo")});
  std::map<int64_t, std::string> track_names;
  std::vector<json> job2;
  for (const auto& e : trace["traceEvents"]) {
    if (e["name"] == "thread_name") {
      track_names[e["tid"].get<int64_t>()] = e["args"]["name"];
    } else if (e["ph"] == "X" && e["args"]["job_id"] == 2) {
      job2.push_back(e);
    }
  }
  ASSERT_EQ(job2.size(), 2u);  // one 8-GPU run on two nodes
  EXPECT_EQ(job2[0]["ts"], 0);
  EXPECT_EQ(job2[0]["dur"], 7'200'000'000);
  EXPECT_EQ(job2[0]["pid"], 1);
  EXPECT_EQ(job2[0]["name"], "job 2");
  EXPECT_EQ(job2[0]["cat"], "completed");
  EXPECT_EQ(track_names[job2[0]["tid"]], "r01-n02");
  EXPECT_EQ(track_names[job2[1]["tid"]], "r02-n01");
}

TEST(ChromeTrace, PreemptedRunsAreSeparateSlices) {
  const json trace = trace_of({testing::fixture("hybrid/thermal-aware")});
  std::vector<std::string> reasons;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "X" && e["args"]["job_id"] == 2) {
      reasons.push_back(e["cat"]);
    }
  }
  EXPECT_EQ(reasons, (std::vector<std::string>{"preempted", "preempted", "completed", "completed"}));
}

TEST(ChromeTrace, EmptyScheduleIsStillValidJson) {
  std::ostringstream out;
  write_chrome_trace(out, {PolicySchedule{"idle", {}}});
  const json trace = json::parse(out.str());
  EXPECT_EQ(trace["traceEvents"].size(), 2u);  // process name and sort index
}

TEST(ChromeTrace, UnwritablePathIsAnIoError) {
  const Status s = write_schedule_trace({testing::fixture("basic")}, "/nonexistent/dir/trace.json");
  EXPECT_EQ(s.code(), ErrorCode::kIo);
}

}  // namespace
}  // namespace boreas::report
