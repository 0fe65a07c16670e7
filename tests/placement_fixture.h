#pragma once
// A cluster state with chosen GPUs held, for hand-checked placement tests.

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "policy/placement.h"
#include "state/cluster_state.h"
#include "support/cluster_builder.h"

namespace boreas::testing {

// A GPU type with the figures the power and throughput models read.
inline GpuType gpu_type(const char* name, double bf16_tflops, double tdp_w, double idle_w = 0) {
  GpuType t;
  t.name = name;
  t.bf16_tflops = bf16_tflops;
  t.memory_bandwidth_gbps = 1000;
  t.tdp_w = tdp_w;
  t.idle_w = idle_w;
  return t;
}

// Node `i` of 4 GPUs (GPUs 4i..4i+3) of `type` in `rack`.
inline Node four_gpu_node(uint32_t i, uint32_t rack, uint32_t type) {
  Node n;
  n.name = "node" + std::to_string(i);
  n.rack = RackId(rack);
  n.gpu_type = GpuTypeId(type);
  n.gpu_count = 4;
  n.first_gpu = 4 * i;
  return n;
}

class PlacementFixture {
 public:
  // Takes the cluster and jobs; job 0..k are submitted at time 0.
  PlacementFixture(Cluster cluster, JobListBuilder jobs)
      : cluster_(std::move(cluster)), jobs_(std::move(jobs)) {
    state_ = std::make_unique<state::ClusterState>(cluster_, jobs_.jobs(), jobs_.symbols());
    for (const JobSpec& j : jobs_.jobs()) {
      (void)state_->submit(j.id, Time::zero());
    }
  }
  // Starts `job` on GPUs [first, first + count).
  bool hold(uint32_t job, uint32_t first, uint32_t count) {
    std::vector<uint32_t> gpus;
    for (uint32_t g = first; g < first + count; ++g) {
      gpus.push_back(g);
    }
    return hold(job, gpus);
  }
  bool hold(uint32_t job, const std::vector<uint32_t>& gpus) {
    std::vector<GpuId> ids;
    for (uint32_t g : gpus) {
      ids.push_back(GpuId(g));
    }
    return state_->start(JobId(job), ids, Time::zero()).is_ok();
  }
  std::optional<std::vector<GpuId>> place(policy::Placement& p, uint32_t job, Time now = Time::zero()) {
    state::ClusterView view(*state_, now);
    policy::Scratch scratch(view);
    return p.place(state_->spec(JobId(job)), scratch);
  }
  std::set<uint32_t> nodes_of(const std::optional<std::vector<GpuId>>& gpus) const {
    std::set<uint32_t> out;
    for (GpuId g : gpus.value_or(std::vector<GpuId>{})) {
      out.insert(state_->node_of(g).value());
    }
    return out;
  }
  state::ClusterState& state() { return *state_; }
  Cluster& cluster() { return cluster_; }
  JobListBuilder& jobs() { return jobs_; }

 private:
  Cluster cluster_;
  JobListBuilder jobs_;
  std::unique_ptr<state::ClusterState> state_;
};

}  // namespace boreas::testing
