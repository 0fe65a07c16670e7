#include "policy/quota_audit.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <utility>

namespace boreas::policy {

QuotaAudit::QuotaAudit(const QueueTree& tree, const Cluster& cluster) : book_(&tree, cluster), tree_(tree) {
  for (size_t q = 0; q < tree.queues.size(); ++q) {
    uint64_t g = 0;
    for (const GpuQuota& quota : tree.queues[q].quotas) {
      g += quota.guaranteed;
    }
    guaranteed_.push_back(g);
  }
  alone_.assign(tree.queues.size(), 1);
  for (size_t q = 0; q < tree.queues.size(); ++q) {
    if (const auto& p = tree.parent[q]) {
      alone_[q] = 0;
      alone_[p->value()] = 0;
    }
  }
  for (uint32_t q = 0; q < alone_.size(); ++q) {
    if (!alone_[q]) {
      nested_.push_back(q);
    }
  }
}

uint64_t QuotaAudit::guaranteed(const std::string& queue) const {
  const auto id = tree_.find(queue);
  return id ? guaranteed_[id->value()] : 0;
}

// Looks the job's queue up once, and keeps its gang's GPUs beside it (gpus_): the walks over pending
// gangs read a dense array instead of each job's spec.
uint32_t QuotaAudit::queue_of(JobId job, const state::ClusterState& state) {
  if (job_queue_.size() < state.job_count()) {
    job_queue_.resize(state.job_count(), -1);
    gpus_.resize(state.job_count(), 0);
  }
  int32_t& q = job_queue_[job.value()];
  if (q < 0) {
    const JobSpec& spec = state.spec(job);
    q = static_cast<int32_t>(book_.queue_of(spec.queue, state.symbols()));
    gpus_[job.value()] = spec.gpus;
  }
  return static_cast<uint32_t>(q);
}

// Calls fn on q and every ancestor; nothing for a queue the tree does not name.
template <typename Fn>
void QuotaAudit::up(uint32_t q, Fn&& fn) const {
  const size_t n = guaranteed_.size();
  for (auto p = q < n ? std::optional<QueueId>(QueueId(q)) : std::nullopt; p; p = tree_.parent[p->value()]) {
    fn(p->value());
  }
}

// Moves the job's GPUs and pending gang to where its lifecycle state now puts it.
void QuotaAudit::move(JobId job, const state::ClusterState& state) {
  const uint32_t j = job.value();
  const uint32_t own = queue_of(job, state);
  const uint32_t gpus = gpus_[j];
  if (where_[j] == Where::kRunning) {
    up(own, [&](uint32_t q) { used_[q] -= gpus; });
  } else if (where_[j] == Where::kPending && own < pending_.size()) {
    pending_[own].erase(j);
    pending_gpus_[own] -= gpus;
    pending_by_size_[own].find(gpus)->second.erase(j);
  }
  if (own < alone_stale_.size() && !alone_stale_[own]) {
    alone_stale_[own] = 1;
    if (alone_[own]) {
      stale_alone_.push_back(own);
    }
  }
  const JobState now = state.record(job).state;
  const bool waits = (now == JobState::kPending || now == JobState::kPreempted) && !state.record(job).held;  // in pending()
  where_[j] = waits ? Where::kPending : now == JobState::kRunning ? Where::kRunning : Where::kNone;
  if (where_[j] == Where::kRunning) {
    up(own, [&](uint32_t q) { used_[q] += gpus; });
  } else if (where_[j] == Where::kPending && own < pending_.size()) {
    pending_[own].insert(j);
    pending_gpus_[own] += gpus;
    pending_by_size_[own][gpus].insert(j);
  }
}

// Reads the journal since the last call; the first call counts the state whole.
void QuotaAudit::sync(const state::ClusterState& state) {
  if (!synced_) {
    used_.assign(guaranteed_.size(), 0);
    pending_.assign(guaranteed_.size(), OrderedIds(static_cast<uint32_t>(state.job_count())));
    pending_gpus_.assign(guaranteed_.size(), 0);
    pending_by_size_.assign(guaranteed_.size(), {});
    alone_owed_.assign(guaranteed_.size(), 0);
    alone_total_ = 0;
    alone_stale_.assign(guaranteed_.size(), 1);
    stale_alone_.clear();
    for (uint32_t q = 0; q < alone_.size(); ++q) {
      if (alone_[q]) {
        stale_alone_.push_back(q);
      }
    }
    where_.assign(state.job_count(), Where::kNone);
    for (JobId j : state.running()) {
      move(j, state);
    }
    for (JobId j : state.pending()) {
      move(j, state);
    }
    journal_pos_ = state.journal().size();
    synced_ = true;
    return;
  }
  where_.resize(state.job_count(), Where::kNone);
  const auto journal = state.journal();
  for (; journal_pos_ < journal.size(); ++journal_pos_) {
    move(journal[journal_pos_], state);
  }
}

// A pending gang is owed when it fits the unused guarantee of every queue on its path, where a
// queue's usage leaves out what other subtrees hold beyond their own guarantees (borrowed, so a
// guarantee can always take it back): at the gang's queue x0 that is used(x0); at an ancestor
// x_k, eff(x_k) = eff(x_{k-1}) + Σ over x_k's other children c of min(used(c), G(c)) + the jobs
// of x_k itself. Owed gangs (in arrival order) count once each, however deep the tree.
// Counts the gang as owed (and returns its GPUs) when it fits; wanted holds the owed gangs so far.
uint64_t QuotaAudit::take_if_owed(uint32_t own, uint32_t gpus, const std::vector<uint64_t>& used) {
  bool fits = true;
  uint64_t eff = 0;
  int64_t below = -1;  // the path's previous queue
  up(own, [&](uint32_t q) {
    eff = below < 0 ? used[q]
                    : eff + capped_children_[q] - std::min(used[below], guaranteed_[below]) +
                          (used[q] - children_used_[q]);
    fits = fits && eff + wanted_[q] + gpus <= guaranteed_[q];
    below = q;
  });
  if (!fits) {
    return 0;
  }
  up(own, [&](uint32_t q) { wanted_[q] += gpus; });  // it fits the unused guarantee: owed
  return gpus;
}

void QuotaAudit::prepare(const std::vector<uint64_t>& used) {
  const size_t n = guaranteed_.size();
  wanted_.assign(n, 0);
  capped_children_.assign(n, 0);
  children_used_.assign(n, 0);
  for (uint32_t q = 0; q < n; ++q) {
    if (const auto& p = tree_.parent[q]) {
      capped_children_[p->value()] += std::min(used[q], guaranteed_[q]);
      children_used_[p->value()] += used[q];
    }
  }
}

// A root without children is on no other gang's path and has only its own gangs on its own: in
// arrival order, a gang is owed when it fits the guarantee left. Gangs that fit are taken one after
// the other; past one that does not, the next that fits is the earliest, after it, among the sizes
// that fit (one look per size), so the gangs that do not fit are not walked.
uint64_t QuotaAudit::owed_alone(uint32_t q) {
  uint64_t left = guaranteed_[q] - std::min(guaranteed_[q], used_[q]);
  if (pending_gpus_[q] <= left) {
    return pending_gpus_[q];  // all of them fit together: all owed, in any order
  }
  uint64_t owed = 0;
  for (std::optional<uint32_t> it = pending_[q].first(); it;) {
    const uint32_t gpus = gpus_[*it];
    if (gpus <= left) {
      owed += gpus;
      left -= gpus;
      it = pending_[q].next_after(*it);
      continue;
    }
    std::optional<uint32_t> next;
    for (const auto& [size, jobs] : pending_by_size_[q]) {
      if (size > left) {
        break;
      }
      const auto first = jobs.empty() ? std::nullopt : jobs.next_after(*it);
      next = first && (!next || *first < *next) ? first : next;
    }
    it = next;
  }
  return owed;
}

// Only gangs whose own queue still has unused guarantee (used + wanted < G) can fit, and wanted
// only grows, so the walk merges just those queues' pending gangs in arrival order and drops a
// queue once it is full: the same gangs, in the same order, as a walk over the whole pending set.
// Roots without children are counted apart (owed_alone), each again only once a job of it moved:
// their sum is kept, and only the queues in stale_alone_ are recounted. No other queue's path
// reaches such a root, so the merge (and its scratch) runs only when the tree has nested queues.
uint64_t QuotaAudit::shortfall() {
  for (const uint32_t q : stale_alone_) {  // its count depends only on its own jobs
    alone_total_ -= alone_owed_[q];
    alone_owed_[q] = owed_alone(q);
    alone_total_ += alone_owed_[q];
    alone_stale_[q] = 0;
  }
  stale_alone_.clear();
  return nested_.empty() ? alone_total_ : alone_total_ + owed_nested();
}

uint64_t QuotaAudit::owed_nested() {
  const std::vector<uint64_t>& used = used_;
  const std::vector<OrderedIds>& pending = pending_;
  prepare(used);
  auto open = [&](uint32_t q) { return used[q] + wanted_[q] < guaranteed_[q]; };
  using Head = std::pair<uint32_t, uint32_t>;  // (job id, queue): the queue's next pending gang
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  for (const uint32_t q : nested_) {
    if (open(q) && !pending[q].empty()) {
      heads.emplace(*pending[q].first(), q);
    }
  }
  uint64_t total = 0;
  while (!heads.empty()) {
    const auto [id, own] = heads.top();
    heads.pop();
    total += take_if_owed(own, gpus_[id], used);
    const auto next = open(own) ? pending[own].next_after(id) : std::nullopt;
    if (next) {
      heads.emplace(*next, own);
    }
  }
  return total;
}

// The definition, walked plainly: every running job, then every pending gang in arrival order.
uint64_t QuotaAudit::shortfall_from_scratch(const state::ClusterState& state) {
  std::vector<uint64_t> used(guaranteed_.size(), 0);
  for (JobId j : state.running()) {
    up(queue_of(j, state), [&](uint32_t q) { used[q] += state.spec(j).gpus; });
  }
  prepare(used);
  uint64_t total = 0;
  for (JobId j : state.pending()) {
    const uint32_t own = queue_of(j, state);
    total += own < guaranteed_.size() ? take_if_owed(own, state.spec(j).gpus, used) : 0;
  }
  return total;
}

void QuotaAudit::observe(const state::ClusterState& state, Time now) {
  if (!last_.is_never() && now > last_) {
    violation_gpu_s_ += static_cast<double>(rate_) * (now - last_).to_seconds();
  }
  last_ = now;
  sync(state);
  rate_ = shortfall();
}

}  // namespace boreas::policy
