#pragma once
// Reference hardware and offered load (docs/experiments.md, "Reference hardware and offered load"): a trace's durations
// are durations on one stated GPU type, and the load a trace offers a cluster is its work over what
// the cluster's GPUs can do, counted in that type's units when the throughput model is on.

#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/topology.h"
#include "models/throughput.h"

namespace boreas::sim {

struct ReferenceGpu {
  std::string name;  // catalog name; empty: none chosen (no GPU nodes and no rule)
  std::string why;   // how it was chosen, printed by `boreas sim` and kept in summary.json
};

// `flag` (--reference-gpu) when given, checked against the catalog; else the rule for the trace's
// format (Philly: P100, see the function); else the cluster's most common GPU type.
Result<ReferenceGpu> choose_reference_gpu(std::string_view flag, std::string_view trace_format,
                                          const Cluster& cluster);

// The GPU type with the most GPUs in the cluster (the first such in catalog order); none without
// GPU nodes. The reference when nothing else names one, here and in the engine's physics.
std::optional<GpuTypeId> most_common_gpu_type(const Cluster& cluster);

// How many reference GPUs the cluster's GPUs are worth: with the throughput model on (`throughput`:
// the engine's parameters), each GPU counts as its speed over the reference's for the default job
// class; without it (null), every GPU counts 1.
double reference_capacity(const Cluster& cluster, const std::string& reference_gpu,
                          const models::ThroughputParams* throughput);

}  // namespace boreas::sim
