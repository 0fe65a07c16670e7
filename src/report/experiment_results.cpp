#include "report/experiment_results.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <set>

namespace boreas::report {

double t_critical_95(size_t df) {
  static constexpr double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df == 0) {
    return 0;
  }
  if (df <= std::size(kTable)) {
    return kTable[df - 1];
  }
  // Cornish–Fisher's first correction to the normal quantile: within 0.001 of the table past 30.
  return 1.959964 + 2.3737 / static_cast<double>(df);
}

Interval mean_ci95(const std::vector<double>& values) {
  Interval out;
  if (values.empty()) {
    return out;
  }
  const auto n = static_cast<double>(values.size());
  double sum = 0;
  for (double v : values) {
    sum += v;
  }
  out.mean = sum / n;
  if (values.size() < 2) {
    return out;
  }
  double squares = 0;
  for (double v : values) {
    squares += (v - out.mean) * (v - out.mean);
  }
  const double sd = std::sqrt(squares / (n - 1));
  out.ci95 = t_critical_95(values.size() - 1) * sd / std::sqrt(n);
  return out;
}

namespace {

std::vector<double> values_of(const ArmRuns& arm, const std::string& metric) {
  std::vector<double> v;
  for (const auto& run : arm.runs) {
    if (auto it = run.find(metric); it != run.end()) {
      v.push_back(it->second);
    }
  }
  return v;
}

std::set<std::string> metric_names(const ArmRuns& arm) {
  std::set<std::string> names;
  for (const auto& run : arm.runs) {
    for (const auto& [k, v] : run) {
      names.insert(k);
    }
  }
  return names;
}

const ArmRuns* baseline_for(const std::vector<ArmRuns>& arms, const ArmRuns& arm, const std::string& name) {
  for (const ArmRuns& a : arms) {
    if (a.name == name && a.load == arm.load) {
      return &a;
    }
  }
  return nullptr;
}

// The arm minus the baseline, seed by seed (only seeds both ran), so the seeds' shared workload
// cancels: a paired comparison.
nlohmann::ordered_json paired_difference(const ArmRuns& arm, const ArmRuns& base, const std::string& metric) {
  std::vector<double> diffs;
  double base_sum = 0;
  for (size_t i = 0; i < arm.seeds.size(); ++i) {
    const auto j = std::find(base.seeds.begin(), base.seeds.end(), arm.seeds[i]) - base.seeds.begin();
    if (static_cast<size_t>(j) == base.seeds.size()) {
      continue;
    }
    const auto a = arm.runs[i].find(metric);
    const auto b = base.runs[static_cast<size_t>(j)].find(metric);
    if (a == arm.runs[i].end() || b == base.runs[static_cast<size_t>(j)].end()) {
      continue;
    }
    diffs.push_back(a->second - b->second);
    base_sum += b->second;
  }
  const Interval d = mean_ci95(diffs);
  const double base_mean = diffs.empty() ? 0 : base_sum / static_cast<double>(diffs.size());
  nlohmann::ordered_json j;
  j["pairs"] = diffs.size();
  j["diff_mean"] = d.mean;
  j["diff_ci95"] = d.ci95;
  // Relative to the baseline; null when the baseline is 0 (the difference itself is the news).
  j["change"] = base_mean != 0 ? nlohmann::ordered_json(d.mean / std::fabs(base_mean)) : nlohmann::ordered_json();
  j["change_ci95"] = base_mean != 0 ? nlohmann::ordered_json(d.ci95 / std::fabs(base_mean)) : nlohmann::ordered_json();
  j["significant"] = diffs.size() >= 2 && std::fabs(d.mean) > d.ci95;
  return j;
}

nlohmann::ordered_json arm_json(const ExperimentInfo& info, const std::vector<ArmRuns>& arms, const ArmRuns& arm) {
  nlohmann::ordered_json j;
  j["name"] = arm.name;
  j["load"] = arm.load ? nlohmann::ordered_json(*arm.load) : nlohmann::ordered_json(nullptr);
  j["seeds"] = arm.seeds;
  auto& metrics = j["metrics"] = nlohmann::ordered_json::object();
  const ArmRuns* base = arm.name == info.baseline ? nullptr : baseline_for(arms, arm, info.baseline);
  nlohmann::ordered_json versus = nlohmann::ordered_json::object();
  for (const std::string& m : metric_names(arm)) {
    const auto v = values_of(arm, m);
    const Interval ci = mean_ci95(v);
    metrics[m] = {{"mean", ci.mean}, {"ci95", ci.ci95}, {"values", v}};
    if (base) {
      versus[m] = paired_difference(arm, *base, m);
    }
  }
  if (base) {
    j["vs_baseline"] = std::move(versus);
  }
  return j;
}

}  // namespace

nlohmann::ordered_json experiment_results(const ExperimentInfo& info, const std::vector<ArmRuns>& arms) {
  nlohmann::ordered_json j;
  j["experiment"] = info.name;
  j["question"] = info.question;
  j["file"] = info.file;
  j["command"] = info.command;
  j["baseline"] = info.baseline;
  j["report_metrics"] = info.metrics;
  j["arms"] = nlohmann::ordered_json::array();
  for (const ArmRuns& arm : arms) {
    j["arms"].push_back(arm_json(info, arms, arm));
  }
  return j;
}

}  // namespace boreas::report
