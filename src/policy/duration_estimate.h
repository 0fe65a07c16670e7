#pragma once
// What a scheduler may know of a job's run time before it ends: its time limit when it has one,
// else a prediction from the jobs that completed earlier — the geometric mean of their durations
// in the same queue with the same GPU count, else in the same queue, else over all (each level
// used once it has kMinHistory jobs). Never the job's own duration, which the twin knows and a real
// scheduler does not. With no history at all the estimate is infinite (treated as long).

#include <cstdint>
#include <map>
#include <utility>

#include "core/job.h"
#include "state/cluster_view.h"

namespace boreas::policy {

class DurationEstimator {
 public:
  static constexpr uint64_t kMinHistory = 3;

  Duration estimate(const JobSpec& job, const state::ClusterView& view);

 private:
  struct LogMean {
    double log_sum = 0;
    uint64_t n = 0;
    void add(double seconds);
    Duration value() const;
  };

  // Folds in the jobs completed since the last call (a new ClusterState starts over).
  void learn(const state::ClusterView& view);

  std::map<std::pair<uint32_t, uint32_t>, LogMean> by_queue_gpus_;
  std::map<uint32_t, LogMean> by_queue_;
  LogMean all_;
  size_t seen_finished_ = 0;
  const state::ClusterState* state_ = nullptr;
};

}  // namespace boreas::policy
