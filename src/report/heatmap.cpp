#include "report/heatmap.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace boreas::report {

std::string rack_of_node(std::string_view node) {
  const size_t dash = node.rfind('-');
  if (dash == std::string_view::npos || dash == 0) {
    return std::string(node);
  }
  return std::string(node.substr(0, dash));
}

namespace {

// Adds `gpus` busy over [start, end) seconds to the row, as a mean per bin.
void add_busy(std::vector<double>& row, double bin_s, double start, double end, double gpus) {
  const auto first = static_cast<size_t>(start / bin_s);
  for (size_t b = first; b < row.size(); ++b) {
    const double lo = std::max(start, static_cast<double>(b) * bin_s);
    const double hi = std::min(end, static_cast<double>(b + 1) * bin_s);
    if (hi <= lo) {
      break;
    }
    row[b] += gpus * (hi - lo) / bin_s;
  }
}

// Keeps the `max_racks` rows with the most busy GPU-time, still in name order.
void keep_busiest(RackHeatmap& map, size_t max_racks) {
  if (map.racks.size() <= max_racks) {
    return;
  }
  std::vector<double> totals;
  for (const auto& row : map.cells) {
    totals.push_back(std::accumulate(row.begin(), row.end(), 0.0));
  }
  std::vector<size_t> order(map.racks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return totals[a] > totals[b]; });
  order.resize(max_racks);
  std::sort(order.begin(), order.end());
  RackHeatmap kept{{}, map.bin_s, {}, map.racks_total};
  for (size_t i : order) {
    kept.racks.push_back(map.racks[i]);
    kept.cells.push_back(std::move(map.cells[i]));
  }
  map = std::move(kept);
}

}  // namespace

RackHeatmap rack_heatmap(const std::vector<JobRun>& runs, size_t max_bins, size_t max_racks) {
  RackHeatmap map;
  std::map<std::string, size_t> row_of;
  int64_t horizon_us = 0;
  for (const auto& run : runs) {
    horizon_us = std::max(horizon_us, run.end_us);
    for (const auto& node : run.nodes) {
      row_of.emplace(rack_of_node(node), 0);
    }
  }
  if (row_of.empty() || horizon_us <= 0 || max_bins == 0) {
    return map;
  }
  for (auto& [rack, row] : row_of) {
    row = map.racks.size();
    map.racks.push_back(rack);
  }
  const double horizon_s = static_cast<double>(horizon_us) / 1e6;
  map.bin_s = horizon_s / static_cast<double>(max_bins);
  map.cells.assign(map.racks.size(), std::vector<double>(max_bins, 0.0));
  map.racks_total = map.racks.size();
  for (const auto& run : runs) {
    const double per_node = static_cast<double>(run.gpus) / static_cast<double>(std::max<size_t>(1, run.nodes.size()));
    for (const auto& node : run.nodes) {
      add_busy(map.cells[row_of.at(rack_of_node(node))], map.bin_s, static_cast<double>(run.start_us) / 1e6,
               static_cast<double>(run.end_us) / 1e6, per_node);
    }
  }
  keep_busiest(map, max_racks);
  return map;
}

}  // namespace boreas::report
