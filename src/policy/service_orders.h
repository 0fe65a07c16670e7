#pragma once
// Orders by attained service (GPU-time already received), which needs no job-size oracle:
//   las     — Tiresias' discretized 2D-LAS: K queues split by thresholds on attained GPU-seconds;
//             within a queue running jobs first, then pending, each in the order it entered
//   gittins — Tiresias' 2D-Gittins: within the same bookkeeping, jobs ordered by the Gittins index
//             of their attained service under the GPU-time distribution of completed jobs

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/time.h"
#include "policy/gittins.h"
#include "policy/priority_scheduler.h"

namespace boreas::policy {

// Attained service in GPU-µs: work done × gang size, the measure LAS and Gittins rank by
// (ClusterView::attained_gpu_us's formula, for callers that hold the gang size already).
inline int64_t attained_gpu_us(Duration work_done, uint32_t gpus) {
  return work_done.us() * gpus;
}

// The first time at which a running job's attained service may reach `attained_until` GPU-µs, its
// run segment started at `last_start_us` with `work_done` banked, `gpus` GPUs, at `rate` (work per
// µs): before it, (work_done + llround((t − last_start) × rate)) × gpus < attained_until, as
// ClusterState::work_done_at counts. Exact at rate 1; at other rates up to 1 / rate + 2 µs early
// (a rounding margin), never late. Time::never() when it is past the representable times.
int64_t attained_below_until_us(int64_t last_start_us, Duration work_done, int64_t attained_until, int64_t gpus,
                                double rate);

struct ServiceOptions {
  std::vector<double> thresholds_gpu_s = {3250, 7200};  // Tiresias defaults: 3 queues
  // Promote a pending job back to the top queue when it has waited this many times its run time;
  // 0 = never (the peers' setting).
  double starvation_factor = 0;
  // A running job preempted this many times is not preempted again (the quota policy's guard,
  // docs/multitenancy.md); 0 = no cap (Tiresias).
  uint32_t max_preemptions = 0;
};

// Per-job queue level and entry order. A running job changes level only when its attained
// service reaches its queue's ceiling, at a time known from its run segment (start, rate, level),
// so those times sit in a heap and a round touches only the jobs that are due — not every running
// job. Starts and rate changes are learned from the state's journals.
class ServiceLevels {
 public:
  explicit ServiceLevels(ServiceOptions options);
  // Re-levels running jobs that are due and, with starvation promotion on, pending ones; returns
  // true when a pending job's level changed. Due demotions are applied in every round, also when
  // the scheduler ranks only pending jobs: a demotion left due would be reported by
  // next_demotion() as due again at now + 1, a wake-up every microsecond (issue 15).
  bool update(const state::ClusterView& view);
  // Jobs whose level changed in the last update().
  std::span<const JobId> changed() const { return changed_; }
  // Levels one job (first sight, or before reading its key).
  bool touch(JobId job, const state::ClusterView& view) { return touch(job, view, view.attained_gpu_us(job)); }
  // The same, with the job's view.attained_gpu_us() already read.
  bool touch(JobId job, const state::ClusterView& view, int64_t attained_gpu_us);
  uint32_t level(JobId job) const { return levels_[job.value()]; }
  int64_t entry(JobId job) const { return entries_[job.value()]; }
  // Next time a job that runs once `plan` is applied crosses its queue's threshold, or a waiting
  // job is due for starvation promotion.
  std::optional<Time> next_demotion(const state::ClusterView& view, const Plan& plan);
  size_t queue_count() const { return thresholds_us_.size() + 1; }
  // Upper bound of the job's current queue in GPU-µs, or -1 for the last queue.
  int64_t ceiling_us(JobId job) const;

 private:
  // A predicted demotion, valid while the job runs the same segment at the same rate and level.
  struct Due {
    int64_t at_us;
    JobId job;
    int64_t segment_us;  // the run segment's start (JobRecord::last_start)
    double rate;
    uint32_t level;
    bool operator>(const Due& o) const { return at_us != o.at_us ? at_us > o.at_us : o.job < job; }
  };
  static constexpr Due kNoDue{0, JobId(), -1, 0, 0};  // a job with no entry pushed (never current)
  uint32_t level_for(int64_t attained_us) const;
  void resize(size_t jobs);
  void follow_runs(const state::ClusterView& view);
  std::optional<int64_t> demotion_after(JobId job, int64_t from_us, int64_t attained_us,
                                        const state::ClusterView& view) const;
  void expect(JobId job, const state::ClusterView& view);
  void push_due(JobId job, int64_t at_us, const state::ClusterView& view);
  bool current(const Due& d, const state::ClusterView& view) const;
  void compact(const state::ClusterView& view);
  std::optional<int64_t> next_promotion(const state::ClusterView& view, const Plan& plan) const;

  ServiceOptions options_;
  std::vector<int64_t> thresholds_us_;
  std::vector<uint32_t> levels_;
  // When the job entered its current queue (µs; submit time for queue 0), so the order does not
  // depend on how often rounds run. -1 = not seen yet.
  std::vector<int64_t> entries_;
  std::vector<int64_t> offsets_;  // service forgiven by a starvation promotion
  std::vector<JobId> changed_;
  std::vector<Due> due_;  // min-heap on at_us; stale entries are dropped when they surface
  std::vector<Due> latest_;  // per job: the last entry pushed, so a segment is pushed once
  size_t journal_seen_ = 0;
  size_t rates_seen_ = 0;
};

std::unique_ptr<PriorityOrder> make_las_order(ServiceOptions options);
std::unique_ptr<PriorityOrder> make_gittins_order(ServiceOptions options);

}  // namespace boreas::policy
