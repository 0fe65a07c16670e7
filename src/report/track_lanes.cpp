#include "report/track_lanes.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace boreas::report {
namespace {

struct Slice {
  int64_t start_us;
  int64_t end_us;
  size_t run;
  size_t k;  // position of the node in the run's node list
};

// The lowest lane whose last slice ended by `start`, or a new one.
int64_t take_lane(std::vector<int64_t>& lane_end, const Slice& s) {
  for (size_t i = 0; i < lane_end.size(); ++i) {
    if (lane_end[i] <= s.start_us) {
      lane_end[i] = s.end_us;
      return static_cast<int64_t>(i);
    }
  }
  lane_end.push_back(s.end_us);
  return static_cast<int64_t>(lane_end.size() - 1);
}

}  // namespace

LanePlan plan_lanes(const std::vector<JobRun>& runs) {
  std::map<std::string, std::vector<Slice>> by_node;
  LanePlan plan;
  plan.lane.resize(runs.size());
  for (size_t r = 0; r < runs.size(); ++r) {
    plan.lane[r].assign(runs[r].nodes.size(), 0);
    for (size_t k = 0; k < runs[r].nodes.size(); ++k) {
      by_node[runs[r].nodes[k]].push_back({runs[r].start_us, runs[r].end_us, r, k});
    }
  }
  for (auto& [node, slices] : by_node) {
    std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
      return std::tie(a.start_us, a.end_us, a.run) < std::tie(b.start_us, b.end_us, b.run);
    });
    std::vector<int64_t> lane_end;
    for (const Slice& s : slices) {
      plan.lane[s.run][s.k] = take_lane(lane_end, s);
    }
    plan.nodes.push_back({node, static_cast<int64_t>(lane_end.size())});
  }
  return plan;
}

}  // namespace boreas::report
