#include "report/page_data.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/version.h"
#include "report/drilldown.h"
#include "report/headline.h"
#include "report/heatmap.h"
#include "report/series.h"

namespace boreas::report {
namespace {

using nlohmann::json;

struct Column {
  const char* key;
  const char* label;
  const char* format;  // how report.js prints it: duration, percent, int, number, money
  const char* better;  // lower, higher, or "" when neither
  bool optional;
  const char* legacy = nullptr;  // the key runs saved before it was renamed wrote instead
  double scale = 1;              // shown value = recorded value × scale (units people read)
};

// The comparison table; optional columns appear when any policy's summary has the key.
constexpr Column kColumns[] = {
    {"jobs", "Jobs", "int", "", false},
    {"avg_jct_s", "JCT avg", "duration", "lower", false},
    {"p50_jct_s", "JCT p50", "duration", "lower", false},
    {"p99_jct_s", "JCT p99", "duration", "lower", false},
    {"avg_queue_s", "Queue time avg", "duration", "lower", false},
    {"window_utilization", "GPU utilization (window)", "percent", "higher", true},
    {"work_utilization", "Work utilization (window)", "percent", "higher", true},
    {"makespan_utilization", "Makespan utilization", "percent", "higher", false, "utilization"},
    {"idle_gpu_hours_while_waiting", "Idle GPU-h while jobs wait", "number", "lower", true},
    {"slowdown_p99", "Slowdown p99", "number", "lower", true},
    {"preemptions", "Preemp\u00ADtions", "int", "lower", false},
    {"makespan_s", "Makespan", "duration", "lower", false},
    {"energy_it_kwh", "IT energy (kWh)", "number", "lower", true},
    {"energy_facility_kwh", "Facility energy (kWh)", "number", "lower", true},
    {"avg_pue", "PUE", "number", "lower", true},
    {"throttled_gpu_hours", "Throttled GPU-h", "number", "lower", true},
    {"lost_gpu_hours", "Lost GPU-h", "number", "lower", true},
    {"cost_usd", "Cost (USD)", "money", "lower", true},
    {"quota_violation_gpu_seconds", "Quota violations (GPU-h)", "number", "lower", true, nullptr, 1.0 / 3600},
    {"fairness_shortfall_gpu_hours", "Fair-share shortfall GPU-h", "number", "lower", true},
};

json number_or_null(const json& summary, const char* key) {
  const auto it = summary.find(key);
  return it != summary.end() && it->is_number() ? json(it->get<double>()) : json(nullptr);
}

json column_value(const json& summary, const Column& c) {
  json v = number_or_null(summary, c.key);
  if (v.is_null() && c.legacy) {
    v = number_or_null(summary, c.legacy);
  }
  return v.is_null() || c.scale == 1 ? v : json(round_significant(v.get<double>() * c.scale, 6));
}

bool any_has(const std::vector<PolicyRun>& runs, const char* key) {
  return std::any_of(runs.begin(), runs.end(), [&](const PolicyRun& r) { return r.summary.contains(key); });
}

std::string string_or_empty(const json& summary, const char* key) {
  const auto it = summary.find(key);
  return it != summary.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double hours(double seconds) { return round_significant(seconds / 3600.0, 6); }

json xy_points(const std::vector<XY>& points) {
  json out = json::array();
  for (const auto& p : points) {
    out.push_back({hours(p.x), std::isnan(p.y) ? json(nullptr) : json(round_significant(p.y, 5))});
  }
  return out;
}

}  // namespace

double round_significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value)) {
    return value;
  }
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(value)))));
  return std::round(value * scale) / scale;
}

json comparison_table(const std::vector<PolicyRun>& runs) {
  json columns = json::array();
  std::vector<const Column*> shown;
  for (const auto& c : kColumns) {
    if (!c.optional || any_has(runs, c.key)) {
      columns.push_back({{"key", c.key}, {"label", c.label}, {"format", c.format}, {"better", c.better}});
      shown.push_back(&c);
    }
  }
  json rows = json::array();
  for (const auto& run : runs) {
    json values = json::array();
    for (const Column* c : shown) {
      values.push_back(column_value(run.summary, *c));
    }
    rows.push_back({{"policy", run.name}, {"values", values}});
  }
  return {{"columns", columns}, {"rows", rows}};
}

json queue_usage(const std::vector<PolicyRun>& runs) {
  json out = json::array();
  for (const auto& run : runs) {
    const json queues = run.summary.value("queues", json::object());
    for (const auto& [queue, gpu_seconds] : run.jobs.gpu_seconds_by_queue) {
      const json entry = queues.is_object() ? queues.value(queue, json::object()) : json::object();
      json energy = number_or_null(entry, "energy_kwh");
      if (energy.is_null()) {
        energy = number_or_null(entry, "energy_it_kwh");
      }
      out.push_back({{"policy", run.name},
                     {"queue", queue},
                     {"gpu_hours", round_significant(gpu_seconds / 3600.0, 6)},
                     {"cost_usd", number_or_null(entry, "cost_usd")},
                     {"energy_kwh", energy}});
    }
  }
  return out;
}

json jct_cdfs(const std::vector<PolicyRun>& runs, const PageLimits& limits) {
  json out = json::array();
  for (const auto& run : runs) {
    json points = json::array();
    for (const auto& p : cdf_points(run.jobs.jct_s, limits.cdf_points)) {
      points.push_back({round_significant(p.x, 6), round_significant(p.y, 6)});
    }
    out.push_back({{"policy", run.name},
                   {"jobs", run.jobs.jobs},
                   {"unfinished", run.jobs.unfinished},
                   {"points", points}});
  }
  return out;
}

json cluster_load(const std::vector<PolicyRun>& runs, const PageLimits& limits) {
  json out = json::array();
  for (const auto& run : runs) {
    const auto& t = run.series.time_s;
    const auto allocated = downsample(t, *run.series.column("allocated_gpus"), limits.series_points);
    const auto pending = downsample(t, *run.series.column("pending_gpus"), limits.series_points);
    json points = json::array();
    for (size_t i = 0; i < allocated.size(); ++i) {
      points.push_back({hours(allocated[i].x), round_significant(allocated[i].y, 5),
                        round_significant(pending[i].y, 5)});
    }
    out.push_back({{"policy", run.name}, {"gpus", number_or_null(run.summary, "gpus")}, {"points", points}});
  }
  return out;
}

namespace {

std::vector<std::string> keys_with_prefix(const TimeSeries& series, const std::string& a, const std::string& b) {
  std::vector<std::string> keys;
  for (const auto& name : series.names) {
    for (const auto* prefix : {&a, &b}) {
      if (name.rfind(*prefix, 0) == 0 && name.size() > prefix->size()) {
        const std::string key = name.substr(prefix->size());
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
          keys.push_back(key);
        }
      }
    }
  }
  return keys;
}

json series_or_null(const TimeSeries& series, const std::string& name, const PageLimits& limits) {
  const auto* column = series.column(name);
  return column == nullptr ? json(nullptr) : xy_points(downsample(series.time_s, *column, limits.series_points));
}

}  // namespace

json keyed_series(const std::vector<PolicyRun>& runs, const std::string& prefix, const std::string& paired_prefix,
                  const PageLimits& limits) {
  json out = json::array();
  for (const auto& run : runs) {
    for (const auto& key : keys_with_prefix(run.series, prefix, paired_prefix)) {
      out.push_back({{"policy", run.name},
                     {"key", key},
                     {"main", series_or_null(run.series, prefix + key, limits)},
                     {"paired", series_or_null(run.series, paired_prefix + key, limits)}});
    }
  }
  return out;
}

json rack_heatmaps(const std::vector<PolicyRun>& runs, const PageLimits& limits) {
  json out = json::array();
  for (const auto& run : runs) {
    const RackHeatmap map = rack_heatmap(run.runs, limits.heatmap_bins, limits.heatmap_racks);
    json cells = json::array();
    for (size_t r = 0; r < map.cells.size(); ++r) {
      for (size_t b = 0; b < map.cells[r].size(); ++b) {
        cells.push_back({r, b, round_significant(map.cells[r][b], 4)});
      }
    }
    out.push_back({{"policy", run.name},
                   {"racks", map.racks},
                   {"racks_total", map.racks_total},
                   {"bin_h", round_significant(map.bin_s / 3600.0, 6)},
                   {"cells", cells}});
  }
  return out;
}

namespace {

// "data/traces/philly-sia/philly.csv.gz" -> "philly".
std::string trace_stem(std::string path) {
  path = path.substr(path.find_last_of('/') + 1);
  for (const char* ext : {".gz", ".csv", ".jsonl", ".json", ".swf", ".txt"}) {
    if (path.size() > std::string(ext).size() && path.ends_with(ext)) {
      path.resize(path.size() - std::string(ext).size());
    }
  }
  return path;
}

}  // namespace

std::string default_title(const std::vector<PolicyRun>& runs, size_t baseline) {
  if (runs.empty()) {
    return "Boreas policy comparison";
  }
  const std::string trace = trace_stem(string_or_empty(runs[baseline].summary, "trace"));
  const std::string cluster = string_or_empty(runs[baseline].summary, "cluster");
  std::string title = trace.empty() ? "Policy comparison" : trace + " trace";
  if (!cluster.empty()) {
    title += " on the " + cluster + " cluster";
  }
  std::string others;
  for (size_t i = 0; i < runs.size(); ++i) {
    others += i == baseline ? "" : (others.empty() ? "" : ", ") + runs[i].name;
  }
  return title + ": " + (others.empty() ? runs[baseline].name : others + " vs " + runs[baseline].name);
}

Result<json> page_data(const std::vector<PolicyRun>& runs, const std::string& title, const PageLimits& limits,
                       const PageChoices& choices) {
  auto baseline = pick_baseline(runs, choices.baseline);
  if (!baseline.is_ok()) {
    return baseline.status();
  }
  json policies = json::array();
  for (const auto& run : runs) {
    policies.push_back({{"name", run.name},
                        {"dir", run.dir},
                        {"cluster", string_or_empty(run.summary, "cluster")},
                        {"trace", string_or_empty(run.summary, "trace")}});
  }
  return json{{"title", title.empty() ? default_title(runs, *baseline) : title},
              {"generator", "boreas " + std::string(version())},
              {"limits", {{"series_points", limits.series_points}, {"cdf_points", limits.cdf_points}}},
              {"policies", policies},
              {"headline", headline(runs, *baseline)},
              {"table", comparison_table(runs)},
              {"cdf", jct_cdfs(runs, limits)},
              {"load", cluster_load(runs, limits)},
              {"queue_share", keyed_series(runs, "gpus:", "guarantee:", limits)},
              {"zones", keyed_series(runs, "power_kw:", "temp_c:", limits)},
              {"heatmap", rack_heatmaps(runs, limits)},
              {"by_queue", queue_usage(runs)},
              {"jobs", job_drilldown(runs, *baseline, limits.drilldown_jobs, choices.jobs)}};
}

json page_data(const std::vector<PolicyRun>& runs, const std::string& title, const PageLimits& limits) {
  return *page_data(runs, title, limits, PageChoices{});
}

}  // namespace boreas::report
