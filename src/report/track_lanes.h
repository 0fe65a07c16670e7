#pragma once
// Tracks for the schedule export: a node shared by several jobs at once gets one lane per
// concurrent run, so no two slices on one track overlap (Perfetto does not draw overlaps).

#include <cstdint>
#include <string>
#include <vector>

#include "report/run_data.h"

namespace boreas::report {

struct NodeLanes {
  std::string node;
  int64_t lanes = 0;  // the most runs that overlapped on it
};

struct LanePlan {
  std::vector<NodeLanes> nodes;             // every node that ran anything, in name order
  std::vector<std::vector<int64_t>> lane;   // lane[r][k]: lane (0-based) of run r on its k-th node
};

// Per node, runs in (start, end, file order) go to the lowest lane free at their start: the
// fewest lanes any packing can use (the most runs overlapping at one instant).
LanePlan plan_lanes(const std::vector<JobRun>& runs);

}  // namespace boreas::report
