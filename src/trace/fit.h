#pragma once
// Jobs that can never run on a cluster, found before a run: what `boreas sim` refuses (or drops
// with --drop-unfit) and what `boreas trace stats --cluster` reports. It refuses exactly what the
// engine would cancel or leave waiting forever whatever the policy:
//   unknown-type      no GPU type the job names matches a catalog type (core/gpu_match.h)
//   ambiguous-type    a name matches several catalog types and none other matches one
//   type-not-in-cluster  its types are known but the cluster has no GPU of them
//   too-many-gpus     more GPUs than the cluster has of its types (of any type when it names none)
// A job's GPUs per node (JobSpec::gpus_per_node) is not checked: no placement enforces it, so a
// gang spreads over smaller nodes and runs.

#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.h"
#include "trace/trace.h"

namespace boreas::trace {

enum class UnfitReason : uint8_t { kUnknownType, kAmbiguousType, kTypeNotInCluster, kTooManyGpus };

struct UnfitJob {
  JobId job;
  UnfitReason reason;
  std::string why;  // the reason in words, the same for every job of one cause
};

// Unfit jobs in trace order.
std::vector<UnfitJob> find_unfit_jobs(const Cluster& cluster, const Trace& trace);

// "3 of 8 jobs can never run on cluster 'c':" and one line per cause with its count and its first
// `ids_shown` job ids (the trace's own ids).
std::string describe_unfit(const std::vector<UnfitJob>& unfit, const Trace& trace, const Cluster& cluster,
                           size_t ids_shown = 5);

// Removes the unfit jobs (ids made dense again, the first submit 0).
void drop_unfit_jobs(Trace& trace, const std::vector<UnfitJob>& unfit);

}  // namespace boreas::trace
