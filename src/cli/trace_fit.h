#pragma once
// What `boreas sim` and `boreas trace stats` share about a trace on a cluster: the user's GPU type
// map (--gpu-type-map) and the jobs that can never run there (trace/fit.h).

#include <CLI/CLI.hpp>

#include <string>

#include "core/status.h"
#include "core/topology.h"
#include "trace/trace.h"

namespace boreas::cli {

void add_gpu_type_map_option(CLI::App* cmd, std::string& spec);
// Applies --gpu-type-map to the trace; each target must be a type of `catalog`.
Status map_gpu_types(const std::string& spec, const GpuCatalog& catalog, trace::Trace& trace);
// Refuses a trace with jobs that can never run on the cluster (what, which, why, how to fix), or
// with `drop` removes them and says so on stderr. Returns how many were dropped.
Result<uint64_t> refuse_or_drop_unfit(const Cluster& cluster, trace::Trace& trace, bool drop);
// The unfit report of `boreas trace stats --cluster` (empty when every job can run).
std::string unfit_report(const Cluster& cluster, const trace::Trace& trace);

}  // namespace boreas::cli
