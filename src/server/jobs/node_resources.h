#pragma once
// CPUs and memory per node, which the daemon counts beside the GPUs the policy places: a job
// starts on a node only while the jobs running there leave room for its CPUs and memory (the
// policy sees GPUs only; a `gpus: 0` job would otherwise always start). A node whose spec gives
// no `cpus` (or no `memory_gib`) is not counted on that resource.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/topology.h"
#include "server/jobs/live_job.h"

namespace boreas::server {

struct JobResources {
  int64_t cpu_milli = 0;   // 0 = not counted, no limit
  int64_t memory_mib = 0;  // 0 = not counted, no limit
};

// What a job holds on `node`: its request (`cpus`, `memory`), else its share of the node: a GPU
// job gpus/gpu_count of the node's CPUs and memory, a share of one GPU (gpu_milli) that part of one
// GPU's, a CPU-only job one CPU and the node's memory per CPU. A requested `memory` without `cpus` (or the reverse) takes the default for the other.
JobResources job_resources(const SubmitRequest& r, const Node& node);

// What a job holds on one node of its placement: job_resources with a gang's default share taken
// from the GPUs it holds there (an explicit `cpus`/`memory` is per node).
JobResources held_on(const SubmitRequest& r, const JobNode& p, const Node& node);

// At submit: a request for more CPUs or memory than any node has can never start.
Status check_resources_fit(const SubmitRequest& r, const Cluster& cluster);

class NodeLoad {
 public:
  // What the running jobs among `jobs` hold, each on its node.
  NodeLoad(const Cluster& cluster, const std::map<uint32_t, LiveJob>& jobs);
  // A start the policy planned: a CPU-only job goes to the first undrained node with room (its
  // placement is set), a GPU job stays where its GPUs are (every node of a gang must have room).
  // Counted when it fits; else the reason it waits, and the job's placement is cleared.
  std::optional<std::string> admit(LiveJob& job, const std::vector<bool>& drained);

 private:
  void hold(size_t node, const JobResources& r);
  bool fits(size_t node, const JobResources& r) const;
  std::optional<size_t> first_with_room(const SubmitRequest& r, const std::vector<bool>& drained) const;
  std::string shortfall(size_t node, const JobResources& r) const;

  const Cluster& cluster_;
  std::vector<JobResources> used_;
};

}  // namespace boreas::server
