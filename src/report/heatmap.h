#pragma once
// Busy GPUs per rack over time, derived from runs.csv. The simulator output has no per-rack
// series, so the rack of a node is read from its name: everything before the last '-'
// ("r03-n07" -> "r03"); a name without '-' is its own row. See docs/report.md.

#include <string>
#include <string_view>
#include <vector>

#include "report/run_data.h"

namespace boreas::report {

struct RackHeatmap {
  std::vector<std::string> racks;          // rows, by name
  double bin_s = 0;                        // width of a time bin
  std::vector<std::vector<double>> cells;  // cells[rack][bin]: mean busy GPUs over the bin
  size_t racks_total = 0;                  // before capping to the busiest rows
};

std::string rack_of_node(std::string_view node);

// Bins [0, last run end) into at most `max_bins` bins; keeps the `max_racks` busiest racks.
RackHeatmap rack_heatmap(const std::vector<JobRun>& runs, size_t max_bins, size_t max_racks);

}  // namespace boreas::report
