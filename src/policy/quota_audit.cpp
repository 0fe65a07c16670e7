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

// A pending gang is owed when it fits the unused guarantee of every queue on its path, where a
// queue's usage leaves out what other subtrees hold beyond their own guarantees (borrowed, so a
// guarantee can always take it back): at the gang's queue x0 that is used(x0); at an ancestor
// x_k, eff(x_k) = eff(x_{k-1}) + Σ over x_k's other children c of min(used(c), G(c)) + the jobs
// of x_k itself. Owed gangs (in arrival order) count once each, however deep the tree.
uint64_t QuotaAudit::shortfall(const state::ClusterState& state) {
  const size_t n = guaranteed_.size();
  std::vector<uint64_t> used(n, 0), wanted(n, 0), capped_children(n, 0), children_used(n, 0);
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
    if (const auto& p = tree_.parent[q]) {
      capped_children[p->value()] += std::min(used[q], guaranteed_[q]);
      children_used[p->value()] += used[q];
    }
  }
  uint64_t total = 0;
  for (auto it = state.pending().begin(); it != state.pending().end() && open > 0; ++it) {
    const uint32_t gpus = state.spec(*it).gpus;
    const uint32_t own = queue_of(*it, state);
    if (own >= n) {
      continue;  // a queue the tree does not name: nothing guaranteed
    }
    bool fits = true;
    uint64_t eff = 0;
    int64_t below = -1;  // the path's previous queue
    up(own, [&](uint32_t q) {
      eff = below < 0 ? used[q]
                      : eff + capped_children[q] - std::min(used[below], guaranteed_[below]) +
                            (used[q] - children_used[q]);
      fits = fits && eff + wanted[q] + gpus <= guaranteed_[q];
      below = q;
    });
    if (!fits) {
      continue;
    }
    total += gpus;
    up(own, [&](uint32_t q) {
      wanted[q] += gpus;  // this gang fits in the unused guarantee: the queue is owed it
      open -= used[q] + wanted[q] >= guaranteed_[q] && used[q] + wanted[q] - gpus < guaranteed_[q] ? 1 : 0;
    });
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
