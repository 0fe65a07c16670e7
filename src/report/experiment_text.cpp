// The terminal view of an experiment's results.json: per load, one row per arm, the report's first
// metrics as mean ± CI and, for non-baseline arms, the paired change (* where the CI excludes 0).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "report/experiment_results.h"

namespace boreas::report {

namespace {

using Json = nlohmann::ordered_json;
constexpr size_t kColumns = 5;
constexpr int kWidth = 26;

std::string compact(double v) {
  const double a = std::fabs(v);
  if (a < 1e-9) {
    return "0";  // integrals' rounding residue, e.g. 2.8e-11 GPU-hours
  }
  if (a >= 1e6) {
    return fmt::format("{:.3g}", v);
  }
  return a >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.3g}", v);
}

// A difference from a baseline of 0: "+3.1" (no percentage can be taken).
std::string signed_compact(double v) {
  return (v >= 0 ? "+" : "") + compact(v);
}

std::string cell(const Json& arm, const std::string& metric) {
  if (!arm["metrics"].contains(metric)) {
    return "–";
  }
  const Json& v = arm["metrics"][metric];
  std::string text = compact(v["mean"].get<double>()) + "±" + compact(v["ci95"].get<double>());
  if (arm.contains("vs_baseline") && arm["vs_baseline"].contains(metric)) {
    const Json& d = arm["vs_baseline"][metric];
    const std::string mark = d["significant"].get<bool>() ? "*" : "";
    text += d["change"].is_null() ? fmt::format(" {}{}", signed_compact(d["diff_mean"].get<double>()), mark)
                                  : fmt::format(" {:+.0f}%{}", d["change"].get<double>() * 100, mark);
  }
  return text;
}

// "priority_classes.production.avg_jct_s" -> "production.avg_jct_s": the column stays readable.
std::string header(const std::string& metric) {
  const auto first = metric.find('.');
  const std::string short_name = first != std::string::npos && metric.find('.', first + 1) != std::string::npos
                                     ? metric.substr(first + 1)
                                     : metric;
  return short_name.size() > kWidth - 1 ? short_name.substr(0, kWidth - 2) + "~" : short_name;
}

std::string markdown_row(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const auto& c : cells) {
    row += " " + c + " |";
  }
  return row + "\n";
}

}  // namespace

std::string experiment_markdown(const Json& results) {
  std::vector<std::string> metrics = results["report_metrics"].get<std::vector<std::string>>();
  std::string out;
  Json last_load = "none";
  for (const Json& arm : results["arms"]) {
    if (arm["load"] != last_load) {
      last_load = arm["load"];
      std::vector<std::string> head{"load " + (last_load.is_null() ? std::string("trace")
                                                                    : compact(last_load.get<double>()))};
      for (const auto& m : metrics) {
        head.push_back("`" + header(m) + "`");
      }
      out += (out.empty() ? "" : "\n") + markdown_row(head);
      out += markdown_row(std::vector<std::string>(head.size(), "---"));
    }
    std::vector<std::string> cells{arm["name"].get<std::string>()};
    for (const auto& m : metrics) {
      cells.push_back(cell(arm, m));
    }
    out += markdown_row(cells);
  }
  return out;
}

std::string experiment_text(const Json& results) {
  std::vector<std::string> metrics = results["report_metrics"].get<std::vector<std::string>>();
  if (metrics.empty()) {
    metrics = {"avg_jct_s", "p99_jct_s", "avg_queue_s"};
  }
  metrics.resize(std::min(metrics.size(), kColumns));
  std::string out = fmt::format("{}: mean ± 95% CI over seeds; % = paired change vs {} (* beyond the CI)\n",
                                results["experiment"].get<std::string>(), results["baseline"].get<std::string>());
  Json last_load = "none";
  for (const Json& arm : results["arms"]) {
    if (arm["load"] != last_load) {
      last_load = arm["load"];
      out += fmt::format("load {:<10}", last_load.is_null() ? std::string("trace") : compact(last_load.get<double>()));
      for (const auto& m : metrics) {
        out += fmt::format(" {:>{}}", header(m), kWidth);
      }
      out += "\n";
    }
    out += fmt::format("  {:<13}", arm["name"].get<std::string>());
    for (const auto& m : metrics) {
      out += fmt::format(" {:>{}}", cell(arm, m), kWidth);
    }
    out += "\n";
  }
  return out;
}

}  // namespace boreas::report
