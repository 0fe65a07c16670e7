#pragma once
// Non-preemptive queue policies over pending jobs in arrival order:
//   fifo  (Blocking::kStrict)   — start in order while the next job fits; stop at the first that does not
//   fjf   (Blocking::kSkip)     — start every job that fits, in order; no reservation
//   easy-backfill (kBackfill)   — EASY: reserve for the first blocked job, backfill only jobs that
//                                 cannot delay that reservation (by time limit)

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "policy/placement.h"
#include "policy/queue_scheduler_pending.h"
#include "policy/scheduler.h"

namespace boreas::policy {

enum class Blocking { kStrict, kSkip, kBackfill };

class QueueScheduler final : public Scheduler {
 public:
  // time_limit_factor: a job without a time limit in the trace is assumed to ask for
  // factor × its true duration (backfill only).
  QueueScheduler(std::string name, Blocking blocking, std::unique_ptr<Placement> placement,
                 std::unique_ptr<Admission> admission, double time_limit_factor);

  std::string_view name() const override { return name_; }
  std::string_view placement_name() const override { return placement_->name(); }
  Plan schedule(const state::ClusterView& view) override;

 private:
  struct Reservation {
    Time shadow = Time::never();  // when the blocked head job can start at the latest
    uint32_t extra = 0;           // GPUs free at `shadow` beyond the head's need
  };
  bool visit(JobId job, Scratch& scratch, std::optional<Reservation>& reservation, Plan& plan);
  bool try_start(JobId job, Scratch& scratch, Plan& plan);
  Duration limit_of(const JobSpec& job) const;
  Duration limit_of(JobId job, const state::ClusterView& view) const;
  Reservation reserve(JobId head, const Scratch& scratch, const Plan& plan) const;
  bool may_backfill(JobId job, Reservation& r, const state::ClusterView& view) const;

  std::string name_;
  Blocking blocking_;
  std::unique_ptr<Placement> placement_;
  std::unique_ptr<Admission> admission_;
  double time_limit_factor_;
  // Each job's limit in µs, computed once (a spec does not change); -1 = not yet. Backfilling
  // reads it for every waiting job in every round that holds a reservation.
  mutable std::vector<int64_t> limit_us_;
  PendingList pending_;  // easy-backfill's walk
};

}  // namespace boreas::policy
