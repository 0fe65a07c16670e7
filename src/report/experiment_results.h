#pragma once
// `boreas experiment run`'s results: per arm and load, each metric over the seeds as mean, 95%
// confidence interval and values, and each arm's paired difference from the arm named `baseline`
// (docs/experiments.md gives the statistics). Plain data in; JSON and a self-contained HTML page out.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace boreas::report {

// One arm at one load: the flat metrics of each seed's run (same order as `seeds`).
struct ArmRuns {
  std::string name;
  std::optional<double> load;  // empty: the trace's own arrivals
  std::vector<uint64_t> seeds;
  std::vector<std::map<std::string, double>> runs;
};

struct ExperimentInfo {
  std::string name;
  std::string question;
  std::string file;
  std::string command;
  std::string baseline = "baseline";
  std::vector<std::string> metrics;  // shown in the report, in this order
};

// Two-sided 95% Student-t critical value for `df` degrees of freedom (df >= 1).
double t_critical_95(size_t df);

struct Interval {
  double mean = 0;
  double ci95 = 0;  // half-width; 0 with fewer than two values
};
Interval mean_ci95(const std::vector<double>& values);

// results.json: {"experiment":..., "arms":[{"name", "load", "seeds", "metrics": {m: {mean, ci95,
// values}}, "vs_baseline": {m: {diff_mean, diff_ci95, change, significant}}}]}.
nlohmann::ordered_json experiment_results(const ExperimentInfo& info, const std::vector<ArmRuns>& arms);

// The terminal table of results.json (`boreas experiment summary`).
std::string experiment_text(const nlohmann::ordered_json& results);
// The same as Markdown tables, one per load, every report metric (docs/results.md).
std::string experiment_markdown(const nlohmann::ordered_json& results);

// The HTML page of results.json (self-contained, no scripts).
std::string experiment_html(const nlohmann::ordered_json& results);

}  // namespace boreas::report
