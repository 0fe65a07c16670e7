#pragma once
// The user's GPU type map (--gpu-type-map FROM=TO,...): renames the GPU types a trace's jobs ask
// for before they are matched to the cluster (core/gpu_match.h), for names no rule can resolve.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/gpu.h"
#include "core/status.h"
#include "trace/trace.h"

namespace boreas::trace {

struct GpuTypeMap {
  std::vector<std::pair<std::string, std::string>> entries;  // FROM, TO in the order given
};

// "FROM=TO,..." with FROM a name as the trace spells it (matched ignoring case, vendor words and
// separators) and TO a catalog type name or alias.
Result<GpuTypeMap> parse_gpu_type_map(std::string_view spec);
// Every TO must name exactly one type of `catalog`.
Status check_gpu_type_map(const GpuTypeMap& map, const GpuCatalog& catalog);
// Renames each '|'-separated GPU type of every job that a FROM matches; returns the jobs changed.
uint64_t apply_gpu_type_map(Trace& trace, const GpuTypeMap& map);

}  // namespace boreas::trace
