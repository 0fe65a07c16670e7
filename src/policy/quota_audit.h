#pragma once
// Measures whether guarantees held: at every instant each queue q should hold at least
// min(demand(q), guaranteed(q)) GPUs, where demand = its GPUs in use plus the pending gangs (in
// arrival order) that fit inside its unused guarantee. The shortfall, integrated over time, is
// quota_violation_gpu_seconds. Policy-independent: it reads only ClusterState and the tree.

#include <cstdint>
#include <vector>

#include "core/queue.h"
#include "policy/quota.h"
#include "state/cluster_state.h"

namespace boreas::policy {

class QuotaAudit {
 public:
  QuotaAudit(const QueueTree& tree, const Cluster& cluster);

  // Call after every change (the simulator's observer); integrates the shortfall since the last call.
  void observe(const state::ClusterState& state, Time now);
  double violation_gpu_seconds() const { return violation_gpu_s_; }
  // Σ guarantees of root queues' entries (all types) per queue name, for guarantee_share.
  uint64_t guaranteed(const std::string& queue) const;

 private:
  uint64_t shortfall(const state::ClusterState& state);
  uint32_t queue_of(JobId job, const state::ClusterState& state);

  QuotaBook book_;
  const QueueTree& tree_;
  std::vector<int32_t> job_queue_;   // by job; -1 = not looked up
  std::vector<uint64_t> guaranteed_;  // by book queue, all entries
  uint64_t rate_ = 0;                 // GPUs short since last_
  Time last_ = Time::never();
  double violation_gpu_s_ = 0;
};

}  // namespace boreas::policy
