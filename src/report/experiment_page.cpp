// The HTML page of an experiment's results.json: one table per load, arms as rows, each metric as
// mean ± 95% CI over seeds, and each arm's paired change against the baseline arm.
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "report/experiment_results.h"
#include "report/html_report.h"

namespace boreas::report {

namespace {

using Json = nlohmann::ordered_json;

std::string escape(std::string_view s) { return html_escape(s); }

std::string number(double v) {
  const double a = std::fabs(v);
  if (a >= 1000) {
    return fmt::format("{:.0f}", v);
  }
  if (a >= 10) {
    return fmt::format("{:.1f}", v);
  }
  return fmt::format("{:.3g}", v);
}

// +1 when a larger value is better, -1 when smaller is better, 0 when neither.
int direction(std::string_view metric) {
  for (std::string_view better : {"utilization", "goodput", "completed", "slo_attainment"}) {
    if (metric.find(better) != std::string_view::npos) {
      return 1;
    }
  }
  for (std::string_view worse : {"jct", "queue", "slowdown", "energy", "cost", "throttled", "violation",
                                 "idle", "preempt", "lost", "makespan", "shortfall", "dropped", "recovery"}) {
    if (metric.find(worse) != std::string_view::npos) {
      return -1;
    }
  }
  return 0;
}

std::string change_cell(const Json& vs, const std::string& metric) {
  if (!vs.contains(metric)) {
    return "";
  }
  const Json& d = vs[metric];
  const double diff = d["diff_mean"].get<double>();
  std::string cls = "ns";
  if (d["significant"].get<bool>()) {
    const int dir = direction(metric);
    cls = dir == 0 ? "sig" : ((diff > 0) == (dir > 0) ? "better" : "worse");
  }
  if (d["change"].is_null()) {  // a baseline of 0: show the difference itself
    return fmt::format("<div class=\"{}\">{}{} ± {}</div>", cls, diff >= 0 ? "+" : "", number(diff),
                       number(d["diff_ci95"].get<double>()));
  }
  return fmt::format("<div class=\"{}\">{:+.1f}% ± {:.1f}%</div>", cls, d["change"].get<double>() * 100,
                     d["change_ci95"].get<double>() * 100);
}

std::string arm_row(const Json& arm, const std::vector<std::string>& metrics) {
  std::string row = "<tr><th>" + escape(arm["name"].get<std::string>()) + "</th>";
  const Json empty = Json::object();
  const Json& vs = arm.contains("vs_baseline") ? arm["vs_baseline"] : empty;
  for (const auto& m : metrics) {
    if (!arm["metrics"].contains(m)) {
      row += "<td>–</td>";
      continue;
    }
    const Json& v = arm["metrics"][m];
    row += fmt::format("<td>{} <span class=\"ci\">± {}</span>{}</td>", number(v["mean"].get<double>()),
                       number(v["ci95"].get<double>()), change_cell(vs, m));
  }
  return row + "</tr>\n";
}

std::string load_label(const Json& load) {
  return load.is_null() ? "the trace's own arrivals" : fmt::format("offered load {}", load.get<double>());
}

std::vector<std::string> shown_metrics(const Json& results) {
  std::vector<std::string> metrics = results["report_metrics"].get<std::vector<std::string>>();
  if (metrics.empty()) {
    metrics = {"avg_jct_s", "p99_jct_s", "avg_queue_s", "makespan_s"};
  }
  return metrics;
}

std::string load_table(const Json& results, const Json& load, const std::vector<std::string>& metrics) {
  std::string html = "<h2>" + escape(load_label(load)) + "</h2>\n<table><tr><th>arm</th>";
  for (const auto& m : metrics) {
    std::string name = escape(m);
    for (size_t at = name.find('_'); at != std::string::npos; at = name.find('_', at + 6)) {
      name.insert(at + 1, "<wbr>");  // long metric names wrap at their underscores
    }
    html += "<th>" + name + "</th>";
  }
  html += "</tr>\n";
  for (const Json& arm : results["arms"]) {
    if (arm["load"] == load) {
      html += arm_row(arm, metrics);
    }
  }
  return html + "</table>\n";
}

constexpr std::string_view kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;max-width:1200px;margin:24px auto;padding:0 16px;color:#222}
table{border-collapse:collapse;width:100%;margin:8px 0 24px;table-layout:fixed}
th,td{border-bottom:1px solid #ddd;padding:6px 8px;text-align:right;vertical-align:top;overflow-wrap:anywhere}
th:first-child{text-align:left}.ci{color:#777;font-size:12px}
.better{color:#0a7b34;font-size:12px}.worse{color:#b3261e;font-size:12px}.ns,.sig{color:#777;font-size:12px}
code{background:#f4f4f4;padding:1px 4px}.headline{font-size:16px}
)";

// "cool vs baseline, throttled_gpu_hours: −48% ± 15% at load 0.5, …": the first metric's paired
// change for every arm, the line a reader looks for first.
std::string headline(const Json& results, const std::string& metric) {
  std::string html;
  std::vector<std::string> arms;
  for (const Json& arm : results["arms"]) {
    const std::string name = arm["name"].get<std::string>();
    if (arm.contains("vs_baseline") && std::find(arms.begin(), arms.end(), name) == arms.end()) {
      arms.push_back(name);
    }
  }
  for (const std::string& name : arms) {
    std::string parts;
    for (const Json& arm : results["arms"]) {
      if (arm["name"] != name || !arm["vs_baseline"].contains(metric)) {
        continue;
      }
      const Json& d = arm["vs_baseline"][metric];
      const std::string amount =
          d["change"].is_null()
              ? fmt::format("{:+g} ± {:g}", d["diff_mean"].get<double>(), d["diff_ci95"].get<double>())
              : fmt::format("{:+.1f}% ± {:.1f}%", d["change"].get<double>() * 100, d["change_ci95"].get<double>() * 100);
      parts += fmt::format("{}{}{} at {}", parts.empty() ? "" : "; ", amount,
                           d["significant"].get<bool>() ? "" : " (no change)", escape(load_label(arm["load"])));
    }
    html += "<li><b>" + escape(name) + "</b> vs " + escape(results["baseline"].get<std::string>()) + ", " +
            escape(metric) + ": " + parts + "</li>\n";
  }
  return html.empty() ? "" : "<ul class=\"headline\">" + html + "</ul>\n";
}

}  // namespace

std::string experiment_html(const Json& results) {
  const std::vector<std::string> metrics = shown_metrics(results);
  std::string html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>" +
                     escape(results["experiment"].get<std::string>()) + "</title><style>" + std::string(kStyle) +
                     "</style></head><body>\n";
  html += "<h1>" + escape(results["experiment"].get<std::string>()) + "</h1>\n";
  html += "<p>" + escape(results["question"].get<std::string>()) + "</p>\n";
  html += headline(results, metrics.front());
  html += "<p>Each cell: mean over seeds ± the 95% confidence interval's half-width (Student t). Under each "
          "non-baseline arm: the paired change against <b>" +
          escape(results["baseline"].get<std::string>()) +
          "</b> (same seeds), green when better and red when worse beyond the interval, grey when the "
          "interval includes no change.</p>\n";
  html += "<p>Command: <code>" + escape(results["command"].get<std::string>()) + "</code></p>\n";
  std::vector<Json> loads;
  for (const Json& arm : results["arms"]) {
    if (std::find(loads.begin(), loads.end(), arm["load"]) == loads.end()) {
      loads.push_back(arm["load"]);
    }
  }
  for (const Json& load : loads) {
    html += load_table(results, load, metrics);
  }
  return html + "</body></html>\n";
}

}  // namespace boreas::report
