#pragma once
// Cluster and queue specs written by people, in YAML, validated with file:line:column errors.

#include <string>
#include <vector>

#include "core/gpu.h"
#include "core/queue.h"
#include "core/status.h"
#include "core/topology.h"

namespace boreas::config {

// A warning that does not stop loading (e.g. quotas above capacity), already located and phrased.
struct Warning {
  std::string message;  // "file:line:col: what; hint"
};

// The GPU types shipped in data/gpus.yaml (embedded in the binary at build time).
const GpuCatalog& builtin_gpu_catalog();

// Loads a cluster spec; GPU types come from the built-in catalog plus any `gpu_catalog:` files
// the spec names. Every error says file:line:column, what is wrong and how to fix it.
Result<Cluster> load_cluster_file(const std::string& path, std::vector<Warning>* warnings = nullptr);
Result<Cluster> load_cluster_string(const std::string& yaml, const std::string& name_for_errors,
                                    std::vector<Warning>* warnings = nullptr);

// Loads a queue spec and checks it against the cluster (unknown GPU types, capacity).
Result<QueueTree> load_queues_file(const std::string& path, const Cluster& cluster,
                                   std::vector<Warning>* warnings = nullptr);
Result<QueueTree> load_queues_string(const std::string& yaml, const std::string& name_for_errors,
                                     const Cluster& cluster, std::vector<Warning>* warnings = nullptr);

}  // namespace boreas::config
