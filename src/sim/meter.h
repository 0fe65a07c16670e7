#pragma once
// Time integrals that judge a policy, kept exactly between events (docs/formats/sim-output.md):
// allocated GPU-seconds, reference work and facility energy inside the measurement window; GPU
// time idle while a waiting job would fit it; and each queue's shortfall against its entitled
// share. The engine calls observe() after every change; the state is constant between calls, so
// each integral is a sum of rate × interval. Pending jobs are kept in buckets (GPU-type class ×
// gang size) and queue totals, updated from the state's journal: one observe costs a few buckets
// and queues, not a scan of the pending jobs.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "core/time.h"
#include "policy/placement.h"
#include "policy/reason_book.h"
#include "sim/gang_counts.h"
#include "state/cluster_state.h"

namespace boreas::sim {

struct MeterOptions {
  // Since the first submission; nullopt = the first (start) or last (end) submission.
  std::optional<Duration> window_start, window_end;
  // Fair-share weight per queue name (the queue tree's guarantees); empty = every queue equal.
  std::map<std::string, double> queue_weights;
  // Read from the pending reasons whether a waiting job is held by its own queue's ceiling (runs
  // with a queue tree).
  bool quota_holds = false;
};

// `--window START:END` (seconds since the first submission; either side may be empty).
Status parse_window(std::string_view text, MeterOptions& out);

struct MeterTotals {
  Time window_start, window_end;  // the window actually measured
  double window_allocated_gpu_s = 0;
  double window_work_gpu_s = 0;    // reference-GPU-seconds of progress: Σ rate × GPUs dt
  double window_facility_kwh = 0;  // with power physics
  double idle_while_waiting_gpu_s = 0;
  std::map<std::string, double> queue_shortfall_gpu_s;  // by queue name ("default" = none)
  std::map<std::string, double> queue_entitled_gpu_s;
};

// One queue's claim on capacity, for water_fill.
struct Claim {
  double demand = 0;
  double weight = 0;
  double entitled = 0;  // out
};

// Weighted max-min fair shares of `capacity`: no claim gets more than its demand, and capacity
// left by satisfied claims is shared by the others in proportion to weight. Claims of weight 0
// share, equally, only what every weighted claim leaves. Σ entitled = min(capacity, Σ demand).
void water_fill(std::span<Claim> claims, double capacity);
// The same, reusing `scratch`'s memory (the meter calls it at every change).
struct WaterFillScratch {
  std::vector<size_t> order;
  std::vector<std::pair<double, size_t>> keys;
};
void water_fill(std::span<Claim> claims, double capacity, WaterFillScratch& scratch);

class Meter {
 public:
  Meter(const state::ClusterState& state, MeterOptions options);

  // The run's first and last submission: fixes the window; an error when it ends before it starts.
  Status start(Time first_submit, Time last_submit);
  // After the last change at t. `facility_w`: facility power from now on (0 without power physics);
  // `reasons`: the jobs' latest pending reasons (read when quota_holds is set).
  void observe(Time t, double facility_w, const policy::ReasonBook& reasons);
  // After a change at t that more changes at t follow (the batch of events before the round):
  // integrates up to t and follows the journals, but leaves the rates that depend on the waiting
  // jobs (idle while waiting, the shares) to the instant's observe(), since they would hold for no
  // time. The totals are the same as with observe() here.
  void observe_before_more(Time t, double facility_w);
  // The totals, with the window integrals carried on (state unchanged) to the window's end.
  MeterTotals finish(Time run_end);

 private:
  enum class Where : uint8_t { kNone, kPending, kRunning };
  struct Share {
    uint32_t queue = 0;
    double entitled = 0;
    double shortfall = 0;
  };
  void integrate(Time t);
  bool follow(Time t, double facility_w);  // integrate, sync; true when some job moved
  void integrate_window(Time from, Time to);
  bool sync_jobs();  // true when some job moved
  void sync_job(JobId job);
  void sync_rates();
  uint32_t class_of(const JobSpec& spec);
  double idle_while_waiting(const policy::ReasonBook& reasons);
  void bucket_demand(const std::vector<uint64_t>& free_by_type);
  void unheld_demand(const policy::ReasonBook& reasons);
  double matched_idle(const std::vector<uint64_t>& free_by_type);
  bool held_by_quota(JobId job, const policy::ReasonBook& reasons) const;
  void share_out();
  void fill_shares(uint64_t capacity);

  const state::ClusterState& state_;
  MeterOptions options_;
  policy::TypeFilter types_;
  std::map<uint32_t, uint32_t> class_by_symbol_;       // gpu_types symbol -> class
  std::vector<std::vector<GpuTypeId>> class_types_;    // class -> types it accepts
  std::vector<GangCounts> waiting_;                    // class -> pending jobs by gang size
  std::vector<uint32_t> job_class_;                    // per job (kNoClass until seen)
  std::vector<uint32_t> job_queue_;                    // per job: dense queue index
  std::vector<Where> where_;                           // per job
  std::vector<double> work_rate_;                      // per job while running: rate × GPUs
  std::vector<std::string> queue_names_;               // dense queue index -> name
  std::vector<uint64_t> held_, pending_;               // per queue: GPUs
  std::vector<double> weight_;                         // per queue
  std::vector<Claim> claims_;                          // of the last fill, one per queue with demand
  std::vector<uint64_t> demand_;                       // per queue: held + pending at the last fill
  uint64_t filled_capacity_ = UINT64_MAX;              // the capacity of the last fill (none yet)
  WaterFillScratch fill_scratch_;
  // Scratch of idle_while_waiting: per GPU type and per class.
  std::vector<uint8_t> usable_scratch_;
  std::vector<uint64_t> free_scratch_, class_free_, class_demand_, target_;
  size_t journal_pos_ = 0, rate_pos_ = 0;
  Time last_ = Time::never();
  // Rates valid since last_.
  uint32_t allocated_ = 0;
  uint32_t down_ = 0;  // down GPUs when idle_ and shares_ were last computed
  bool moved_before_ = false;  // a job moved at an observe_before_more() since the last observe()
  double work_ = 0, facility_w_ = 0, idle_ = 0;
  std::vector<Share> shares_;                             // queues with demand
  std::vector<double> shortfall_gpu_s_, entitled_gpu_s_;  // per queue
  MeterTotals totals_;
  bool default_window_empty_ = false;
  double run_allocated_gpu_s_ = 0, run_work_gpu_s_ = 0, run_facility_kwh_ = 0;
};

}  // namespace boreas::sim
