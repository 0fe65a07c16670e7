#pragma once
// Recovery time (docs/formats/sim-output.md): a failure or reclaim at t stops the run and adds the
// lost work and the restore to what the job has left. The job has regained its progress when its
// remaining work is back to what it was just before t: the requeue wait, the restore and the
// recomputation all count.

#include <cstddef>
#include <vector>

#include "core/ids.h"
#include "core/time.h"

namespace boreas::sim {

class RecoveryClock {
 public:
  // Off (no job is ever watched) until `watch` sizes it for the jobs.
  void watch(size_t jobs) { recovering_.assign(jobs, {}); }
  // Whether the job has an interruption not yet regained.
  bool recovering(JobId job) const { return !recovering_.empty() && !recovering_[job.value()].empty(); }
  // The job's run stopped at `at` with `left` work remaining just before.
  void interrupted(JobId job, Time at, Duration left);
  // Called while the job runs at `rate`, before its run stops or its rate changes, with its
  // remaining work `left` at t: the instant it crossed an interruption's is exact,
  // t − (that − left) / rate.
  void check(JobId job, Time t, Duration left, double rate);
  // Seconds from each interruption to its regain, in the order they were regained.
  std::vector<double> take() { return std::move(recovery_s_); }

 private:
  struct Interruption {
    Time at;        // the failure or reclaim
    Duration left;  // the job's remaining work just before it
  };
  std::vector<std::vector<Interruption>> recovering_;  // per job: interruptions not yet regained
  std::vector<double> recovery_s_;
};

}  // namespace boreas::sim
