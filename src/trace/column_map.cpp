#include "trace/column_map.h"

#include <algorithm>
#include <utility>

#include "trace/text.h"

namespace boreas::trace {
namespace {

bool is_time_target(const std::string& t) {
  return t == "submit" || t == "duration" || t == "end" || t == "start" || t == "time_limit";
}

std::optional<ValueUnit> parse_unit(std::string_view s) {
  static const std::pair<std::string_view, ValueUnit> kUnits[] = {
      {"us", ValueUnit::kMicros},  {"ms", ValueUnit::kMillis}, {"s", ValueUnit::kSeconds},
      {"min", ValueUnit::kMinutes}, {"h", ValueUnit::kHours},  {"datetime", ValueUnit::kDateTime}};
  for (const auto& [name, unit] : kUnits) {
    if (s == name) {
      return unit;
    }
  }
  return std::nullopt;
}

// Header names the auto map recognises, per target (lower case).
const std::vector<std::pair<std::string, std::vector<std::string>>>& known_names() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kNames = {
      {"submit", {"submit", "submit_time", "submission_time", "submitted", "arrival", "arrival_time",
                  "timestamp", "creation_time", "submit_s", "submit_ms", "submit_us", "arrival_s"}},
      {"duration", {"duration", "run_time", "runtime", "elapsed", "duration_s", "duration_ms", "duration_us",
                    "run_time_s", "runtime_s"}},
      {"end", {"end", "end_time", "finish_time", "completion_time"}},
      {"start", {"start", "start_time"}},
      {"gpus", {"gpus", "gpu", "num_gpus", "num_gpu", "gpu_num", "gpu_count", "n_gpus", "ngpus"}},
      {"name", {"job_id", "jobid", "id", "name", "job_name", "job"}},
      {"queue", {"queue", "vc", "virtual_cluster", "partition", "cluster", "account"}},
      {"user", {"user", "user_id", "username"}},
  };
  return kNames;
}

ValueUnit unit_from_suffix(const std::string& name) {
  for (const auto& [suffix, unit] : std::initializer_list<std::pair<std::string_view, ValueUnit>>{
           {"_us", ValueUnit::kMicros}, {"_ms", ValueUnit::kMillis}, {"_s", ValueUnit::kSeconds},
           {"_min", ValueUnit::kMinutes}, {"_h", ValueUnit::kHours}}) {
    if (name.size() > suffix.size() && name.ends_with(suffix)) {
      return unit;
    }
  }
  return ValueUnit::kSeconds;
}

}  // namespace

const std::vector<std::string>& map_targets() {
  static const std::vector<std::string> kTargets = {
      "submit", "duration", "end",       "start",     "gpus",           "name",      "queue",
      "user",   "cpus",     "memory_mib", "gpu_milli", "gpu_types", "priority_class", "time_limit"};
  return kTargets;
}

int64_t unit_micros(ValueUnit unit) {
  switch (unit) {
    case ValueUnit::kMicros:
      return 1;
    case ValueUnit::kMillis:
      return 1000;
    case ValueUnit::kMinutes:
      return 60'000'000;
    case ValueUnit::kHours:
      return 3'600'000'000;
    default:
      return 1'000'000;
  }
}

Result<ColumnMap> parse_column_map(const std::string& spec) {
  ColumnMap map;
  std::string_view rest = spec;
  while (!rest.empty()) {
    const std::string_view item = take_item(rest);
    std::string_view key, column;
    if (!split_key_value(item, key, column)) {
      return invalid_argument("--map: expected FIELD=COLUMN[:UNIT], got '" + std::string(item) + "'");
    }
    const std::string target(key);
    const auto& targets = map_targets();
    if (std::find(targets.begin(), targets.end(), target) == targets.end()) {
      return invalid_argument("--map: unknown field '" + target +
                              "'; known: submit, duration, end, start, gpus, name, queue, user, cpus, "
                              "memory_mib, gpu_milli, gpu_types, priority_class, time_limit");
    }
    ColumnRef ref;
    ref.unit = is_time_target(target) ? ValueUnit::kSeconds : ValueUnit::kNumber;
    if (const size_t colon = column.rfind(':'); colon != std::string_view::npos && is_time_target(target)) {
      const auto unit = parse_unit(column.substr(colon + 1));
      if (!unit) {
        return invalid_argument("--map: unknown unit '" + std::string(column.substr(colon + 1)) + "' for '" +
                                target + "'; use us, ms, s, min, h or datetime");
      }
      ref.unit = *unit;
      column = column.substr(0, colon);
    }
    if (column.empty()) {
      return invalid_argument("--map: field '" + target + "' names no column");
    }
    ref.column = std::string(column);
    map[target] = ref;
  }
  return map;
}

ColumnMap auto_column_map(const std::vector<std::string>& header) {
  ColumnMap map;
  for (const auto& [target, names] : known_names()) {
    for (const auto& column : header) {
      const std::string lower = to_lower(column);
      if (std::find(names.begin(), names.end(), lower) != names.end()) {
        map[target] = ColumnRef{column, is_time_target(target) ? unit_from_suffix(lower) : ValueUnit::kNumber};
        break;
      }
    }
  }
  return map;
}

}  // namespace boreas::trace
