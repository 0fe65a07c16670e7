#pragma once
// The discrete-event engine: replays a job list on a cluster through a Scheduler.
//
// Events are ordered by (time, sequence). All events at one timestamp (arrivals, completions,
// wake-ups) are applied first, then the scheduler runs once — the peers batch the same way.
// A running job's finish event is computed from remaining work over its rate; when the rate or
// the allocation changes the job's version stamp moves on, so stale finish events are skipped
// when popped, never searched for.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/job.h"
#include "core/status.h"
#include "policy/placement.h"
#include "policy/reason_book.h"
#include "policy/scheduler.h"
#include "sim/event_heap.h"
#include "sim/events.h"
#include "sim/faults.h"
#include "sim/meter.h"
#include "sim/physics.h"
#include "sim/recovery.h"
#include "state/cluster_state.h"

namespace boreas::sim {

struct EngineOptions {
  Duration sample_interval = Duration::seconds(300);
  Duration preemption_overhead;  // extra work a preempted job must redo when it resumes
  uint64_t seed = 0;             // the one generator of the stochastic models (failures, spot)
  PhysicsOptions physics;        // all switches off: no physics, results as before
  MeterOptions meter;            // the measurement window and fair-share weights (sim/meter.h)
  // The event heap's size at which finish events already stale (their job was preempted or its
  // rate changed) move to a heap of their times alone; the threshold then doubles. Outputs do not
  // depend on it (tests set it small, or to SIZE_MAX for never).
  size_t compact_events_from = 4096;
};

// Why a job never started, for jobs.csv.
enum class NeverStarted : uint8_t { kNo, kExceedsCluster, kRunEnded };
std::string_view to_string(NeverStarted reason);

struct RunRecord {
  JobId job;
  uint32_t run = 0;  // 0, 1, ... per job
  Time start;
  Time end = Time::never();
  JobState end_state = JobState::kRunning;  // kCompleted, kPreempted, kFailed, kCancelled
  std::vector<GpuId> gpus;
};

struct Sample {
  Time time;
  uint32_t allocated_gpus = 0;
  uint32_t running_jobs = 0;
  uint32_t pending_jobs = 0;
  uint64_t pending_gpus = 0;
};

struct SimResult {
  std::vector<state::JobRecord> jobs;  // final records, by JobId (GPU lists dropped)
  std::vector<NeverStarted> never_started;
  std::vector<std::string> pending_reasons;  // the policy's last reason each job waited (the engine's book); may be empty
  std::vector<RunRecord> runs;
  std::vector<Sample> samples;
  Time first_submit;
  Time last_end;
  uint64_t events = 0;   // arrivals, completions and physics events (not the wake-ups below)
  uint64_t wakeups = 0;  // wake-ups the scheduler asked for (Plan::wake_at)
  uint64_t rounds = 0;   // scheduling rounds
  std::optional<PhysicsTotals> physics;  // set when any model was on
  std::vector<ZoneSample> zone_samples;  // per sample and zone, with physics
  MeterTotals meter;                     // window, idle-while-waiting and fairness integrals
  // Per failure or spot reclaim that stopped a run: seconds until the job had regained the
  // progress it had at that instant (sim/recovery.h); in the order they were regained.
  std::vector<double> recovery_s;
};

// Called once per instant, after its last change: after the applied plan when a round runs, else
// after the batch of events (tests check invariants here; the quota audit integrates from here).
using Observer = std::function<void(const state::ClusterState&, Time)>;

class Engine {
 public:
  // `jobs[i].id` must be i; they need not be sorted by submit time.
  Engine(const Cluster& cluster, std::span<const JobSpec> jobs, const SymbolTable& symbols,
         policy::Scheduler& scheduler, EngineOptions options);

  void set_observer(Observer observer) { observer_ = std::move(observer); }
  // Called now and then with the share of jobs finished, for a progress bar.
  void set_progress(std::function<void(double)> progress) { progress_ = std::move(progress); }
  Result<SimResult> run();

 private:
  struct Event {
    Time time;
    uint64_t seq;
    EventPayload payload;
  };
  struct EventBefore {
    bool operator()(const Event& a, const Event& b) const {
      return a.time != b.time ? a.time < b.time : a.seq < b.seq;
    }
  };

  Time next_time() const;
  bool physics_done() const;
  Status process_batch(Time t);
  Status dispatch(const Event& e, bool& acted);
  Status arrive(JobId job, Time t);
  uint64_t capacity_for(const JobSpec& job, Time t);
  Status complete(FinishEvent e, Time t);
  Status schedule(Time t);
  Status apply_preemption(JobId job, Time t);
  Status apply_start(policy::Start& start, Time t);  // moves start.gpus into the run record
  void push(Time t, EventPayload payload);
  void compact_events();
  bool stale_finish(const Event& e) const;
  void push_finish(JobId job, Time t);
  void update_rates(std::vector<JobId>& changed, Time t);
  void push_physics_events();
  Status on_rack_check(RackCheckEvent e, Time t);
  Status stop_run(JobId job, Time t, JobState end_state, Duration overhead);
  Status interrupt(JobId job, Time t, JobState end_state, Duration redo);  // stop_run + recovery
  void check_recovery(JobId job, Time t);  // before the job's run stops or its rate changes
  void sample_until(Time t);
  void notify(Time t, bool after_last);
  SimResult finish_result();

  const std::span<const JobSpec> jobs_;
  policy::Scheduler& scheduler_;
  EngineOptions options_;
  state::ClusterState state_;
  std::vector<JobId> arrivals_;  // by (submit, id)
  size_t next_arrival_ = 0;
  EventHeap<Event, EventBefore> heap_;  // by (time, seq): a total order, popped exactly in turn
  // Times of finish events found stale when the heap was compacted: a stale finish only counts as
  // an event and makes its instant one the engine visits, so its time is all it needs (8 bytes
  // instead of an event's 32; gittins' demo row leaves ≈ 100k behind its preemptions).
  EventHeap<Time, std::less<>> stale_finishes_;
  size_t compact_at_ = 0;
  uint64_t seq_ = 0;
  std::vector<uint32_t> version_;
  std::vector<uint32_t> open_run_;  // per job: index into result_.runs of the current run
  std::optional<Time> wake_;        // earliest wake-up already in the heap
  Time next_sample_;
  SimResult result_;
  std::vector<uint64_t> gpus_by_type_;
  policy::TypeFilter types_;
  Observer observer_;
  std::function<void(double)> progress_;
  std::unique_ptr<Physics> physics_;  // null without physics
  std::unique_ptr<Faults> faults_;    // failures and reclaims; null without physics
  std::vector<JobId> changed_;        // scratch: jobs whose rate may have changed
  std::vector<GpuId> stop_gpus_;      // scratch: the GPUs of the run stop_run ends
  Meter meter_;                       // the summary's time integrals, kept at every notify
  policy::ReasonBook reasons_;        // each job's latest pending reason, from every plan
  RecoveryClock recovery_;            // per failure or reclaim: time until its progress is regained
};

}  // namespace boreas::sim
