#pragma once
// Measures whether guarantees held: at every instant each queue q should hold at least
// min(demand(q), guaranteed(q)) GPUs, where demand = its GPUs in use plus the pending gangs (in
// arrival order) that fit inside its unused guarantee. The shortfall, integrated over time, is
// quota_violation_gpu_seconds. Policy-independent: it reads only ClusterState and the tree.
//
// Incremental: usage per queue and each queue's pending gangs are kept in step with the state's
// journal (a job moves when its lifecycle state changes), so one observe costs the journal entries
// since the last call plus the pending gangs of the queues that still have unused guarantee; a
// root queue without children is counted on its own, skipping the gangs too large for its unused
// guarantee through its pending gangs by size, and recounted only in instants that moved one of
// its jobs.

#include <cstdint>
#include <map>
#include <vector>

#include "core/ordered_ids.h"
#include "core/queue.h"
#include "policy/quota.h"
#include "state/cluster_state.h"

namespace boreas::policy {

class QuotaAudit {
 public:
  QuotaAudit(const QueueTree& tree, const Cluster& cluster);

  // Call once per instant, after the instant's last change (the simulator's observer); integrates
  // the shortfall since the last call. A second call at the same instant recounts the shortfall.
  void observe(const state::ClusterState& state, Time now);
  double violation_gpu_seconds() const { return violation_gpu_s_; }
  // Σ guarantees of root queues' entries (all types) per queue name, for guarantee_share.
  uint64_t guaranteed(const std::string& queue) const;
  // The GPUs owed but not held as of the last observe.
  uint64_t shortfall_gpus() const { return rate_; }
  // The same count from scratch (every running job and the whole pending set): the reference the
  // incremental count must equal (tests).
  uint64_t shortfall_from_scratch(const state::ClusterState& state);

 private:
  enum class Where : uint8_t { kNone, kPending, kRunning };
  void sync(const state::ClusterState& state);
  void move(JobId job, const state::ClusterState& state);
  void prepare(const std::vector<uint64_t>& used);
  uint64_t take_if_owed(uint32_t own, uint32_t gpus, const std::vector<uint64_t>& used);
  uint64_t shortfall();
  uint64_t owed_nested();
  uint64_t owed_alone(uint32_t q);
  uint32_t queue_of(JobId job, const state::ClusterState& state);
  template <typename Fn>
  void up(uint32_t q, Fn&& fn) const;

  QuotaBook book_;
  const QueueTree& tree_;
  std::vector<int32_t> job_queue_;   // by job; -1 = not looked up
  std::vector<uint32_t> gpus_;       // by job: its gang's GPUs, set with job_queue_
  std::vector<uint64_t> guaranteed_;  // by book queue, all entries
  // Kept in step with the journal: GPUs in use by queue (with its subtree), pending gangs by their
  // own queue (arrival order), and where each job is counted.
  std::vector<uint64_t> used_;
  std::vector<OrderedIds> pending_;
  std::vector<uint64_t> pending_gpus_;  // by own queue: Σ GPUs of its pending gangs
  // by own queue: its pending gangs by size (gang GPUs -> jobs in arrival order; a size stays
  // once seen, empty or not)
  std::vector<std::map<uint32_t, OrderedIds>> pending_by_size_;
  std::vector<uint8_t> alone_;          // by queue: a root without children
  // by alone queue: its owed GPUs as last counted, and whether a job of it moved since
  std::vector<uint64_t> alone_owed_;
  std::vector<uint8_t> alone_stale_;
  std::vector<uint32_t> stale_alone_;  // the alone queues whose alone_stale_ is set
  uint64_t alone_total_ = 0;           // Σ alone_owed_
  std::vector<uint32_t> nested_;       // the queues that are not alone
  std::vector<Where> where_;
  size_t journal_pos_ = 0;
  bool synced_ = false;
  // Scratch for shortfall(), reused.
  std::vector<uint64_t> wanted_, capped_children_, children_used_;
  uint64_t rate_ = 0;                 // GPUs short since last_
  Time last_ = Time::never();
  double violation_gpu_s_ = 0;
};

}  // namespace boreas::policy
