#pragma once
// The request-level serving twin: one service's replicas on a cluster's GPUs, fed a request trace
// (docs/serving.md). Integer microseconds, events ordered by (time, sequence): runs repeat exactly.

#include <cstdint>
#include <string>
#include <vector>

#include "core/gpu.h"
#include "core/status.h"
#include "core/topology.h"
#include "serving/recorder.h"
#include "serving/request_trace.h"
#include "serving/service_spec.h"

namespace boreas::serving {

struct SimOptions {
  int64_t prefix_cache_tokens = 0;  // per replica; PrefixCache::kUnbounded for "inf"; 0 = off
  uint64_t seed = 0;                // recorded only: the engine makes no random choices
  // The mixed cluster (src/mixed): how long the k-th replica asked for (in the order asked, the
  // initial ones first) waits for its GPUs before its cold start begins; missing entries wait 0.
  std::vector<int64_t> replica_wait_us;
};

// One replica's life: asked by the autoscaler (or at the start), given its GPUs, serving, stopped.
struct ReplicaLife {
  int64_t asked_us = 0;
  int64_t start_us = 0;  // GPUs held from here: asked + the wait for GPUs
  int64_t ready_us = 0;  // serving from here: start + cold start (warm initial replicas: start)
  int64_t stop_us = 0;   // GPUs given back (the run's end when it never stopped)
};

// What the run measured, before percentiles (summary.h turns it into summary.json).
struct ServingRun {
  std::vector<Outcome> outcomes;
  std::vector<GapSample> tbt;
  PrefixStats prefix;
  double replica_seconds = 0;   // from start (cold start included) to stop, over replicas
  double busy_gpu_seconds = 0;  // iteration time x GPUs per replica
  int32_t cold_starts = 0;
  double cold_start_seconds = 0;
  int32_t max_replicas = 0;
  double end_s = 0;             // the last request's completion
  int64_t kv_capacity_tokens = 0;
  double cold_start_s = 0;      // one replica's cold start
  std::vector<ReplicaLife> replicas;  // in the order asked
};

// The hardware a replica runs on, from the cluster: the GPU type and how many GPUs of it exist.
struct Placement {
  GpuType gpu;
  uint32_t gpus_available = 0;
};

// The replica's GPU type in the cluster's catalog and how many GPUs of that type the cluster has;
// `cluster_file` names the cluster in the errors.
Result<Placement> placement_on(const Cluster& cluster, const ServiceSpec& service, const std::string& cluster_file);

// Checks that the service fits (model in memory, replicas on the cluster's GPUs, every request's KV
// in one replica) and runs it. Errors say what does not fit and how to fix it.
Result<ServingRun> simulate(const RequestTrace& trace, const ServiceSpec& service, const Placement& placement,
                            const SimOptions& options);

// KV tokens one replica holds: memory_fraction of its GPUs' memory minus the weights.
int64_t kv_capacity_tokens(const ServiceSpec& service, const GpuType& gpu);

}  // namespace boreas::serving
