#include "report/chrome_trace.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <tuple>

#include <zlib.h>

#include "report/testing.h"
#include "report/track_lanes.h"

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

JobRun run_on(int64_t job, int64_t start_s, int64_t end_s, std::vector<std::string> nodes) {
  JobRun r;
  r.job_id = job;
  r.start_us = start_s * 1'000'000;
  r.end_us = end_s * 1'000'000;
  r.gpus = 4;
  r.nodes = std::move(nodes);
  r.end_reason = "completed";
  return r;
}

// Per (pid, tid), the complete events sorted by start; fails on any two that overlap.
void expect_no_overlap(const json& trace) {
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> tracks;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "X") {
      const int64_t ts = e["ts"];
      tracks[{e["pid"], e["tid"]}].emplace_back(ts, ts + e["dur"].get<int64_t>());
    }
  }
  ASSERT_FALSE(tracks.empty());
  for (auto& [track, slices] : tracks) {
    std::sort(slices.begin(), slices.end());
    for (size_t i = 1; i < slices.size(); ++i) {
      EXPECT_LE(slices[i - 1].second, slices[i].first)
          << "pid " << track.first << " tid " << track.second << ": slices overlap";
    }
  }
}

TEST(TrackLanes, ConcurrentRunsOnANodeTakeTheLowestFreeLane) {
  // n1: job 1 [0,100), job 2 [50,150), job 3 [100,200) -> lanes 0, 1, 0; n2 only job 2.
  const std::vector<JobRun> runs = {run_on(1, 0, 100, {"n1"}), run_on(2, 50, 150, {"n2", "n1"}),
                                    run_on(3, 100, 200, {"n1"})};
  const LanePlan plan = plan_lanes(runs);
  ASSERT_EQ(plan.nodes.size(), 2u);
  EXPECT_EQ(plan.nodes[0].node, "n1");
  EXPECT_EQ(plan.nodes[0].lanes, 2);
  EXPECT_EQ(plan.nodes[1].lanes, 1);
  EXPECT_EQ(plan.lane[0], (std::vector<int64_t>{0}));
  EXPECT_EQ(plan.lane[1], (std::vector<int64_t>{0, 1}));  // n2 lane 0, n1 lane 1
  EXPECT_EQ(plan.lane[2], (std::vector<int64_t>{0}));
}

TEST(ChromeTrace, SharedNodeGetsOneTrackPerConcurrentRunAndNoOverlap) {
  std::ostringstream out;
  write_chrome_trace(out, {PolicySchedule{"pack", {run_on(1, 0, 100, {"n1"}), run_on(2, 50, 150, {"n2", "n1"}),
                                                   run_on(3, 100, 200, {"n1"})}}});
  const json trace = json::parse(out.str());
  std::map<int64_t, std::string> names;
  std::map<int64_t, std::vector<int64_t>> jobs_by_tid;
  for (const auto& e : trace["traceEvents"]) {
    if (e["name"] == "thread_name") {
      names[e["tid"]] = e["args"]["name"];
    } else if (e["ph"] == "X") {
      jobs_by_tid[e["tid"]].push_back(e["args"]["job_id"]);
    }
  }
  EXPECT_EQ(names, (std::map<int64_t, std::string>{{1, "n1 #1"}, {2, "n1 #2"}, {3, "n2"}}));
  EXPECT_EQ(jobs_by_tid[1], (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(jobs_by_tid[2], (std::vector<int64_t>{2}));
  EXPECT_EQ(jobs_by_tid[3], (std::vector<int64_t>{2}));
  expect_no_overlap(trace);
}

TEST(ChromeTrace, FixtureRunsHaveNoOverlapOnATrack) {
  expect_no_overlap(trace_of({testing::fixture("basic"), testing::fixture("hybrid")}));
}

TEST(ChromeTrace, GzPathIsWrittenCompressed) {
  const auto path = testing::scratch_dir() / "trace.json.gz";
  ASSERT_TRUE(write_schedule_trace({testing::fixture("basic")}, path.string()).is_ok());
  const std::string raw = testing::read_file(path);
  ASSERT_GE(raw.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(raw[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>(raw[1]), 0x8b);
  gzFile in = gzopen(path.c_str(), "rb");
  ASSERT_NE(in, nullptr);
  std::string text;
  char buf[4096];
  for (int n = gzread(in, buf, sizeof(buf)); n > 0; n = gzread(in, buf, sizeof(buf))) {
    text.append(buf, static_cast<size_t>(n));
  }
  gzclose(in);
  EXPECT_EQ(json::parse(text), trace_of({testing::fixture("basic")}));
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
