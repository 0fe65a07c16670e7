#pragma once
// The generic CSV reader's column map: which source column feeds which job field, in what unit.
// Written "submit=submission_time,duration=run:min,gpus=num_gpu"; see docs/formats/csv.md.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace boreas::trace {

enum class ValueUnit { kNumber, kMicros, kMillis, kSeconds, kMinutes, kHours, kDateTime };

struct ColumnRef {
  std::string column;
  ValueUnit unit = ValueUnit::kNumber;
};

// target field ("submit", "gpus", ...) → source column.
using ColumnMap = std::map<std::string, ColumnRef>;

// The fields a map may name: submit duration end start gpus name queue user cpus memory_mib
// gpu_milli gpu_types priority_class time_limit.
const std::vector<std::string>& map_targets();
Result<ColumnMap> parse_column_map(const std::string& spec);
// Guesses a map from header names (e.g. job_id,submit_s,gpus,duration_s); targets it cannot
// find are left out.
ColumnMap auto_column_map(const std::vector<std::string>& header);
// Microseconds per unit for time values (seconds when no unit is given).
int64_t unit_micros(ValueUnit unit);

}  // namespace boreas::trace
