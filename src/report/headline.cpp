#include "report/headline.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "report/headline_notes.h"

namespace boreas::report {
namespace {

using nlohmann::json;

std::optional<double> number(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
}

// 1234567.4 -> "1,234,567".
std::string thousands(double value) {
  const std::string digits = fmt::format("{:.0f}", std::fabs(value));
  std::string out = value <= -0.5 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    out += (i > 0 && (digits.size() - i) % 3 == 0) ? "," : "";
    out += digits[i];
  }
  return out;
}

std::string signed_percent(double fraction) {
  return fmt::format("{}{:.0f}%", fraction < 0 ? "\u2212" : "+", std::fabs(100 * fraction));
}

json item(const std::string& key, const std::string& text, std::optional<bool> better) {
  return {{"key", key}, {"text", text}, {"better", better ? json(*better) : json(nullptr)}};
}

// JCT-like: lower is better; `label` e.g. "production JCT".
std::optional<json> lower_item(const std::string& key, const std::string& label, std::optional<double> base,
                               std::optional<double> arm) {
  if (!base || !arm || *base <= 0 || *arm <= 0) {
    return std::nullopt;
  }
  const std::string text = fmt::format("{} {} ({} \u2192 {})", label, lower_is_better_change(*base, *arm),
                                       days_or_hours(*base), days_or_hours(*arm));
  const double r = *arm / *base;
  return item(key, text, std::fabs(r - 1) < 0.005 ? std::nullopt : std::optional<bool>(r < 1));
}

void add(json& items, std::optional<json> i) {
  if (i) {
    items.push_back(std::move(*i));
  }
}

// Per priority class other than "default" that both runs recorded, e.g. "production JCT".
void add_class_items(json& items, const json& base, const json& arm) {
  const json bc = base.value("priority_classes", json::object());
  const json ac = arm.value("priority_classes", json::object());
  if (!bc.is_object() || !ac.is_object()) {
    return;
  }
  for (const auto& [name, b] : bc.items()) {
    if (name != "default" && ac.contains(name) && b.is_object() && ac[name].is_object()) {
      add(items, lower_item("class:" + name, name + " JCT", number(b, "avg_jct_s"), number(ac[name], "avg_jct_s")));
    }
  }
}

// The window utilization when both runs have it (it judges the policy), else the makespan one.
std::optional<json> utilization_item(const json& base, const json& arm) {
  for (const char* key : {"window_utilization", "makespan_utilization", "utilization"}) {
    const auto b = number(base, key);
    const auto a = number(arm, key);
    if (b && a) {
      const double points = 100 * (*a - *b);
      const std::string label = std::string(key) == "window_utilization" ? "utilization" : "makespan utilization";
      if (std::fabs(points) < 0.05) {
        return item("utilization", fmt::format("{} unchanged ({:.1f}%)", label, 100 * *a), std::nullopt);
      }
      const std::string text = fmt::format("{} {}{:.1f} points ({:.1f}% \u2192 {:.1f}%)", label,
                                           points < 0 ? "\u2212" : "+", std::fabs(points), 100 * *b, 100 * *a);
      return item("utilization", text, points > 0);
    }
  }
  return std::nullopt;
}

std::optional<json> makespan_item(const json& base, const json& arm) {
  const auto b = number(base, "makespan_s");
  const auto a = number(arm, "makespan_s");
  if (!b || !a || *b <= 0) {
    return std::nullopt;
  }
  const double change = *a / *b - 1;
  if (std::fabs(change) < 0.005) {
    return item("makespan", "makespan unchanged (" + days_or_hours(*a) + ")", std::nullopt);
  }
  return item("makespan", fmt::format("makespan {} ({} \u2192 {})", signed_percent(change), days_or_hours(*b),
                                      days_or_hours(*a)),
              change < 0);
}

// Totals where lower is better and either run recorded a non-zero amount.
std::optional<json> total_item(const json& base, const json& arm, const char* key, const std::string& label,
                               double scale, const char* unit) {
  const auto b = number(base, key);
  const auto a = number(arm, key);
  if (!b || !a || (*b == 0 && *a == 0)) {
    return std::nullopt;
  }
  const std::string text =
      fmt::format("{} {} \u2192 {}{}", label, thousands(*b * scale), thousands(*a * scale), unit);
  return item(key, text, *a == *b ? std::nullopt : std::optional<bool>(*a < *b));
}

json arm_items(const json& base, const json& arm) {
  json items = json::array();
  add_class_items(items, base, arm);
  add(items, lower_item("avg_jct_s", "JCT avg", number(base, "avg_jct_s"), number(arm, "avg_jct_s")));
  add(items, lower_item("p99_jct_s", "JCT p99", number(base, "p99_jct_s"), number(arm, "p99_jct_s")));
  add(items, utilization_item(base, arm));
  add(items, makespan_item(base, arm));
  add(items, total_item(base, arm, "preemptions", "preemptions", 1, ""));
  add(items, total_item(base, arm, "quota_violation_gpu_seconds", "quota violations", 1.0 / 3600, " GPU-h"));
  return items;
}

}  // namespace

std::string lower_is_better_change(double base, double arm) {
  const double r = arm / base;
  if (std::fabs(r - 1) < 0.005) {
    return "unchanged";
  }
  if (r < 1 && 1 / r >= 1.5) {
    return fmt::format("{:.1f}\u00d7 better", 1 / r);
  }
  if (r > 1 && r >= 1.5) {
    return fmt::format("{:.1f}\u00d7 worse", r);
  }
  return fmt::format("{:.0f}% {}", std::fabs(100 * (r - 1)), r < 1 ? "better" : "worse");
}

Result<size_t> pick_baseline(const std::vector<PolicyRun>& runs, const std::string& requested) {
  const std::string want = requested.empty() ? "fifo" : requested;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].name == want) {
      return i;
    }
  }
  if (requested.empty() || runs.empty()) {
    return size_t{0};
  }
  std::string names;
  for (const auto& r : runs) {
    names += (names.empty() ? "" : ", ") + r.name;
  }
  return invalid_argument("--baseline " + requested + ": no such policy in the runs; pick one of: " + names);
}

json headline(const std::vector<PolicyRun>& runs, size_t baseline) {
  json arms = json::array();
  if (runs.empty()) {
    return {{"baseline", nullptr}, {"arms", arms}};
  }
  const PolicyRun& base = runs[baseline];
  for (size_t i = 0; i < runs.size(); ++i) {
    if (i == baseline) {
      continue;
    }
    const json items = arm_items(base.summary, runs[i].summary);
    std::string text = runs[i].name + " vs " + base.name + ":";
    for (size_t k = 0; k < items.size(); ++k) {
      text += (k == 0 ? " " : ", ") + items[k]["text"].get<std::string>();
    }
    arms.push_back({{"policy", runs[i].name},
                    {"text", text},
                    {"items", items},
                    {"notes", explain_arm(base, runs[i], items)}});
  }
  return {{"baseline", base.name}, {"arms", arms}};
}

}  // namespace boreas::report
