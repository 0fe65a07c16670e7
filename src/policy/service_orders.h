#pragma once
// Orders by attained service (GPU-time already received), which needs no job-size oracle:
//   las     — Tiresias' discretized 2D-LAS: K queues split by thresholds on attained GPU-seconds;
//             within a queue running jobs first, then pending, each in the order it entered
//   gittins — Tiresias' 2D-Gittins: within the same bookkeeping, jobs ordered by the Gittins index
//             of their attained service under the GPU-time distribution of completed jobs

#include <memory>
#include <span>
#include <vector>

#include "policy/gittins.h"
#include "policy/priority_scheduler.h"

namespace boreas::policy {

struct ServiceOptions {
  std::vector<double> thresholds_gpu_s = {3250, 7200};  // Tiresias defaults: 3 queues
  // Promote a pending job back to the top queue when it has waited this many times its run time;
  // 0 = never (the peers' setting).
  double starvation_factor = 0;
};

// Per-job queue level and entry order, updated once per round.
class ServiceLevels {
 public:
  explicit ServiceLevels(ServiceOptions options);
  // Re-levels running jobs (unless `pending_only`) and, with starvation promotion on, pending
  // ones; returns true when a pending job's level changed.
  bool update(const state::ClusterView& view, bool pending_only);
  // Jobs whose level changed in the last update().
  std::span<const JobId> changed() const { return changed_; }
  // Levels one job (first sight, or before reading its key).
  bool touch(JobId job, const state::ClusterView& view);
  uint32_t level(JobId job) const { return levels_[job.value()]; }
  int64_t entry(JobId job) const { return entries_[job.value()]; }
  int64_t attained_us(JobId job, const state::ClusterView& view) const;
  // Next time one of `running` crosses its queue's threshold.
  std::optional<Time> next_demotion(const state::ClusterView& view, std::span<const JobId> running) const;
  size_t queue_count() const { return thresholds_us_.size() + 1; }
  // Upper bound of the job's current queue in GPU-µs, or -1 for the last queue.
  int64_t ceiling_us(JobId job) const;

 private:
  uint32_t level_for(int64_t attained_us) const;

  ServiceOptions options_;
  std::vector<int64_t> thresholds_us_;
  std::vector<uint32_t> levels_;
  // When the job entered its current queue (µs; submit time for queue 0), so the order does not
  // depend on how often rounds run. -1 = not seen yet.
  std::vector<int64_t> entries_;
  std::vector<int64_t> offsets_;  // service forgiven by a starvation promotion
  std::vector<JobId> changed_;
};

std::unique_ptr<PriorityOrder> make_las_order(ServiceOptions options);
std::unique_ptr<PriorityOrder> make_gittins_order(ServiceOptions options);

}  // namespace boreas::policy
