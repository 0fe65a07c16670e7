#pragma once
// The one authoritative cluster state (ARCHITECTURE §1): which job holds which GPU, the job table
// and lifecycle, queue usage, and free-capacity indexes per node, rack, zone and GPU type. Every
// mutation goes through here, is validated against the lifecycle (core/job.h) and keeps the
// indexes consistent; check_invariants() re-derives everything from scratch.

#include <cstdint>
#include <set>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/ids.h"
#include "core/job.h"
#include "core/ordered_ids.h"
#include "core/rounding.h"
#include "core/status.h"
#include "core/symbol.h"
#include "core/time.h"
#include "core/topology.h"
#include "state/free_index.h"
#include "state/gpu_shares.h"

namespace boreas::state {

// Per-job runtime record. Work is measured in reference-GPU time: a job is done when
// work_done reaches spec.duration + extra_work.
struct JobRecord {
  JobState state = JobState::kPending;
  bool submitted = false;
  std::vector<GpuId> gpus;  // held while running
  Time first_start = Time::never();
  Time last_start = Time::never();
  Time end = Time::never();
  Time pending_since;
  Duration pending_total;  // time spent pending, including after preemption
  Duration work_done;      // work completed up to last_start (or up to now if not running)
  Duration extra_work;     // added work, e.g. restart overhead after a preemption
  Duration run_time;       // wall time spent running (for GPU-seconds)
  double rate = 1.0;       // work per unit of time while running (physics changes it)
  uint32_t preemptions = 0;
  bool held = false;  // waiting, but out of pending() until released (ClusterState::hold)
};

class ClusterState {
 public:
  // Keeps references: `cluster`, `jobs` and `symbols` must outlive the state. jobs[i].id == i.
  ClusterState(const Cluster& cluster, std::span<const JobSpec> jobs, const SymbolTable& symbols);

  // The job table is append-only and grows in place (the live daemon adds each job it accepts):
  // add_job appends a job, not yet submitted, and returns its id, the table's size before. The
  // table `jobs` given at construction is read where it lies (the twin's trace) until the first
  // add copies it into the state; after an add, references returned by spec() before it are
  // invalid, while ids, records and every set of ids stay as they were.
  JobId add_job(JobSpec spec);
  // A driver whose job is stopping already (its eviction was asked) makes it not preemptible.
  Status set_preemptible(JobId job, bool preemptible);

  // Lifecycle. Each fails without changing anything when the move is illegal.
  Status submit(JobId job, Time now);
  Status start(JobId job, std::span<const GpuId> gpus, Time now);
  Status preempt(JobId job, Time now, Duration overhead = Duration::zero());
  Status finish(JobId job, Time now, JobState final_state = JobState::kCompleted);
  // running → pending, e.g. after a node failure; `redo` is work to do again (lost + restore).
  Status requeue(JobId job, Time now, Duration redo = Duration::zero());
  Status cancel(JobId job, Time now);
  Status set_rate(JobId job, double rate, Time now);
  // For a driver that rebuilds the state from its own records (the live daemon, each round): what
  // a pending job received before (work, wall time run) and how often it was preempted. Work past
  // the spec's duration becomes extra work, so the invariants hold. Only while pending.
  Status restore(JobId job, Duration work_done, Duration run_time, uint32_t preemptions);
  // Held (the live daemon's jobs that wait for their victims to stop or for a dependency): a
  // waiting job leaves pending() (or share_pending()), keeping its record and state, so no policy
  // sees it until release puts it back. Both moves are in the journal. A held job cannot start;
  // it can be cancelled.
  Status hold(JobId job);
  Status release(JobId job);
  // Out of service (failure under repair, reclaimed spot capacity): a down node's GPUs leave the
  // free counts and the free index, so no placement can choose them. Only an idle node goes down.
  Status take_down(NodeId node);
  Status bring_up(NodeId node);
  // Drained (the live daemon's `boreas drain`): a cordoned node keeps its running jobs, but its free
  // GPUs, and every GPU freed on it later, leave the free counts and the free index, so no placement
  // can choose them. Uncordon gives its unheld GPUs back. A node is down or cordoned, not both.
  Status cordon(NodeId node);
  Status uncordon(NodeId node);

  // Read side.
  const Cluster& cluster() const { return cluster_; }
  const SymbolTable& symbols() const { return symbols_; }
  size_t job_count() const { return jobs_.size(); }
  const JobSpec& spec(JobId job) const { return jobs_[job.value()]; }  // until the next add_job
  const JobRecord& record(JobId job) const { return records_[job.value()]; }
  Duration work_done_at(JobId job, Time now) const;  // inline below: called per job per instant
  Duration remaining_at(JobId job, Time now) const;

  const OrderedIdSet<JobId>& pending() const { return pending_; }  // arrival (id) order
  // Running jobs in no particular (but deterministic) order: a dense array, cheap to walk.
  std::span<const JobId> running() const { return running_; }
  const std::vector<JobId>& finished() const { return finished_; }  // in completion order
  uint64_t pending_gpu_demand() const { return pending_gpus_; }
  // Every job whose lifecycle state changed, in order, so a scheduler can keep its own ordered
  // structures in step without rescanning. (The live daemon will compact it; see issue 8.)
  std::span<const JobId> journal() const { return journal_; }
  // Running jobs whose rate was set, in order: their progress per second changed, so anything
  // predicted from it (a demotion time) must be predicted again.
  std::span<const JobId> rate_journal() const { return rate_journal_; }

  uint32_t total_gpus() const { return static_cast<uint32_t>(owner_.size()); }
  uint32_t free_gpus() const { return free_total_; }  // in service and unheld
  uint32_t down_gpus() const { return down_total_; }  // on nodes out of service
  bool gpu_free(GpuId gpu) const {
    return !owner_[gpu.value()].valid() && placeable(gpu_node_[gpu.value()]) && !shares_.shared(gpu);
  }
  bool node_down(NodeId node) const { return down_[node.value()] != 0; }
  bool node_cordoned(NodeId node) const { return cordoned_[node.value()] != 0; }
  JobId gpu_owner(GpuId gpu) const { return owner_[gpu.value()]; }
  NodeId node_of(GpuId gpu) const { return gpu_node_[gpu.value()]; }
  uint32_t node_free(NodeId node) const { return node_free_[node.value()]; }
  uint32_t rack_free(RackId rack) const { return rack_free_[rack.value()]; }
  uint32_t zone_free(ZoneId zone) const { return zone_free_[zone.value()]; }
  std::span<const NodeId> nodes_of_rack(RackId rack) const { return rack_nodes_[rack.value()]; }
  const FreeIndex& free_index() const { return index_; }
  uint32_t queue_gpus_in_use(Symbol queue) const;

  // GPU sharing (cluster_state_shares.cpp; docs/live.md, "Sharing a GPU"). A share job enters with
  // submit_share: it waits in share_pending(), never in pending() (whole-GPU policies do not place
  // it), and starts on one GPU with start_share, beside other shares whose milli sum to at most 1000
  // and whose bytes fit the GPU type's memory; a whole-GPU job never starts on a shared GPU. Every
  // other move (preempt, requeue, finish, cancel, restore) is the same as for any job.
  Status submit_share(JobId job, Time now);
  Status start_share(JobId job, GpuId gpu, uint32_t milli, uint64_t bytes, Time now);
  bool is_share_job(JobId job) const { return share_job_[job.value()] != 0; }
  const OrderedIdSet<JobId>& share_pending() const { return share_pending_; }  // arrival (id) order
  const GpuShares& shares() const { return shares_; }
  uint64_t gpu_memory_bytes(GpuId gpu) const;  // its type's memory_gib in bytes; 0 for a GPU of no type
  uint32_t queue_share_milli(Symbol queue) const;  // milli-GPU the queue's running shares hold

  // Re-derives owners, free counts, indexes, shares and the job sets; the first mismatch is the error.
  Status check_invariants() const;

 private:
  Status check_job(JobId job) const;
  Status check_node(NodeId node) const;
  Status check_gpus(JobId job, std::span<const GpuId> gpus) const;
  void mark_running(JobId job, Time now);
  void take(JobId job, std::span<const GpuId> gpus);
  Duration banked_work(JobId job, Time now) const;
  void give_back(JobId job, Time now);
  void set_node_free(NodeId node, uint32_t value);
  void shift_free(NodeId node, int32_t delta);  // node, rack, zone and total together
  Status check_gpu_owners() const;
  Status check_free_counts() const;
  Status check_job_sets() const;
  bool placeable(NodeId node) const { return !down_[node.value()] && !cordoned_[node.value()]; }
  uint32_t unheld_on(NodeId node) const;  // neither held whole nor shared
  Status check_shares() const;
  void enqueue(JobId job);  // into pending() or share_pending()
  bool dequeue(JobId job);  // out of either; false when it was in neither
  bool queued(JobId job) const { return pending_.count(job) > 0 || share_pending_.count(job) > 0; }
  void give_back_share(JobId job);
  void own_jobs();  // cluster_state_table.cpp

  const Cluster& cluster_;
  std::span<const JobSpec> jobs_;  // the borrowed table, or owned_jobs_ once a job was added
  std::vector<JobSpec> owned_jobs_;
  bool owns_jobs_ = false;
  const SymbolTable& symbols_;
  std::vector<JobRecord> records_;
  std::vector<JobId> owner_;      // per GPU; invalid = free
  std::vector<NodeId> gpu_node_;  // per GPU
  std::vector<uint32_t> node_free_, rack_free_, zone_free_;
  std::vector<std::vector<NodeId>> rack_nodes_;
  std::vector<uint8_t> down_;  // per node: out of service
  uint32_t free_total_ = 0;
  uint32_t down_total_ = 0;
  uint64_t pending_gpus_ = 0;
  FreeIndex index_;
  OrderedIdSet<JobId> pending_;  // bits by id, not a node per job (core/ordered_ids.h)
  std::vector<JobId> running_;
  std::vector<uint32_t> running_pos_;  // per job: index in running_
  std::vector<JobId> finished_;
  std::vector<JobId> journal_;
  std::vector<JobId> rate_journal_;
  std::unordered_map<uint32_t, uint32_t> queue_gpus_;  // queue symbol index -> GPUs in use
  std::vector<uint8_t> cordoned_;  // per node: drained, its unheld GPUs out of the free counts
  std::vector<uint8_t> share_job_;  // per job: submitted with submit_share
  OrderedIdSet<JobId> share_pending_;
  GpuShares shares_;
  std::unordered_map<uint32_t, uint32_t> queue_share_milli_;  // queue symbol index -> milli in shares
};

inline Duration ClusterState::work_done_at(JobId job, Time now) const {
  const JobRecord& r = records_[job.value()];
  if (r.state != JobState::kRunning) {
    return r.work_done;
  }
  const Duration ran = now - r.last_start;
  if (r.rate == 1.0) {
    return r.work_done + ran;
  }
  return r.work_done + Duration::micros(llround_inline(static_cast<double>(ran.us()) * r.rate));
}

inline Duration ClusterState::remaining_at(JobId job, Time now) const {
  const JobRecord& r = records_[job.value()];
  return spec(job).duration + r.extra_work - work_done_at(job, now);
}

}  // namespace boreas::state
