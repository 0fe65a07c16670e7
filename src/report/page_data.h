#pragma once
// The data of the HTML report as one JSON document, already reduced for the page: the
// comparison table, CDF quantiles, down-sampled series, the rack heatmap and per-queue totals.
// web/report.js turns it into Vega-Lite charts; the keys are described in docs/report.md.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "core/status.h"
#include "report/run_data.h"

namespace boreas::report {

struct PageLimits {
  size_t series_points = 2000;  // per time series
  size_t cdf_points = 2000;     // per policy
  size_t heatmap_bins = 120;
  size_t heatmap_racks = 48;
  size_t drilldown_jobs = 5000;  // jobs in the per-job drill-down (the longest-waiting, when more)
};

// What the reader chose: the baseline policy ("" = fifo when present, else the first) and job ids
// the drill-down must hold (besides the longest-waiting ones).
struct PageChoices {
  std::string baseline;
  std::vector<int64_t> jobs;
};

nlohmann::json comparison_table(const std::vector<PolicyRun>& runs);
nlohmann::json queue_usage(const std::vector<PolicyRun>& runs);
nlohmann::json jct_cdfs(const std::vector<PolicyRun>& runs, const PageLimits& limits);
nlohmann::json cluster_load(const std::vector<PolicyRun>& runs, const PageLimits& limits);
// Series named "<prefix><key>" (e.g. "gpus:<queue>") per policy and key.
nlohmann::json keyed_series(const std::vector<PolicyRun>& runs, const std::string& prefix,
                            const std::string& paired_prefix, const PageLimits& limits);
nlohmann::json rack_heatmaps(const std::vector<PolicyRun>& runs, const PageLimits& limits);

// An unknown baseline name is an error naming the policies there are.
Result<nlohmann::json> page_data(const std::vector<PolicyRun>& runs, const std::string& title,
                                 const PageLimits& limits, const PageChoices& choices);
// With the default baseline and no extra jobs (tests).
nlohmann::json page_data(const std::vector<PolicyRun>& runs, const std::string& title, const PageLimits& limits);

// A readable title from the summaries, e.g. "philly trace on the philly cluster: las, boreas vs fifo".
std::string default_title(const std::vector<PolicyRun>& runs, size_t baseline);

// Rounds to `digits` significant digits, so the page does not carry 17-digit noise.
double round_significant(double value, int digits);

}  // namespace boreas::report
