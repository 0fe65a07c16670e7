#include "policy/quota_audit.h"

#include <algorithm>

namespace boreas::policy {

QuotaAudit::QuotaAudit(const QueueTree& tree, const Cluster& cluster) : book_(&tree, cluster), tree_(tree) {
  for (size_t q = 0; q < tree.queues.size(); ++q) {
    uint64_t g = 0;
    for (const GpuQuota& quota : tree.queues[q].quotas) {
      g += quota.guaranteed;
    }
    guaranteed_.push_back(g);
  }
}

uint64_t QuotaAudit::guaranteed(const std::string& queue) const {
  const auto id = tree_.find(queue);
  return id ? guaranteed_[id->value()] : 0;
}

uint32_t QuotaAudit::queue_of(JobId job, const state::ClusterState& state) {
  if (job_queue_.size() < state.job_count()) {
    job_queue_.resize(state.job_count(), -1);
  }
  int32_t& q = job_queue_[job.value()];
  if (q < 0) {
    q = static_cast<int32_t>(book_.queue_of(state.spec(job).queue, state.symbols()));
  }
  return static_cast<uint32_t>(q);
}

uint64_t QuotaAudit::shortfall(const state::ClusterState& state) {
  const size_t n = guaranteed_.size();
  std::vector<uint64_t> used(n, 0), wanted(n, 0);
  auto up = [&](uint32_t q, auto&& fn) {
    for (auto p = q < n ? std::optional<QueueId>(QueueId(q)) : std::nullopt; p; p = tree_.parent[p->value()]) {
      fn(p->value());
    }
  };
  for (JobId j : state.running()) {
    up(queue_of(j, state), [&](uint32_t q) { used[q] += state.spec(j).gpus; });
  }
  size_t open = 0;  // queues with unused guarantee left to fill; none left = stop scanning
  for (size_t q = 0; q < n; ++q) {
    open += used[q] < guaranteed_[q] ? 1 : 0;
  }
  for (auto it = state.pending().begin(); it != state.pending().end() && open > 0; ++it) {
    const uint32_t gpus = state.spec(*it).gpus;
    up(queue_of(*it, state), [&](uint32_t q) {
      if (used[q] + wanted[q] + gpus <= guaranteed_[q]) {
        wanted[q] += gpus;  // this gang fits in the unused guarantee: the queue is owed it
        open -= used[q] + wanted[q] == guaranteed_[q] ? 1 : 0;
      }
    });
  }
  uint64_t total = 0;
  for (size_t q = 0; q < n; ++q) {
    total += wanted[q];
  }
  return total;
}

void QuotaAudit::observe(const state::ClusterState& state, Time now) {
  if (!last_.is_never() && now > last_) {
    violation_gpu_s_ += static_cast<double>(rate_) * (now - last_).to_seconds();
  }
  last_ = now;
  rate_ = shortfall(state);
}

}  // namespace boreas::policy
