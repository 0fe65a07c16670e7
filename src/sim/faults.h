#pragma once
// The fault processes as one event source of the engine: random failures (one FailureProcess over
// every GPU node: its host, its GPUs and the job-only causes of its GPUs as three components,
// FACTS §4.1 rates split by cause), failures placed by hand, and spot reclaims, all drawn from one
// seeded generator. They push typed events (sim/events.h) into the engine's queue and stop runs
// through the engine (`Interrupt`), so the engine keeps the queue, the clock and plan application.
//
// A failure kills the runs on the node; they lose the work since their last checkpoint, pay the
// restore and go back to the queue. A host or GPU failure takes the node out of service until its
// repair ends; a job-only failure (software, network, NCCL, silent data corruption) leaves it in
// service. Spot reclaims take a node away the same way, for the time the spot model draws.

#include <cstdint>
#include <functional>
#include <vector>

#include "core/job.h"
#include "core/status.h"
#include "models/failure.h"
#include "models/random.h"
#include "sim/events.h"
#include "sim/physics.h"
#include "state/cluster_state.h"

namespace boreas::sim {

class Faults {
 public:
  using Push = std::function<void(Time, FaultEvent)>;
  // Stops a job's run at t as `end_state` (kFailed, kPreempted) with `redo` work added back.
  using Interrupt = std::function<Status(JobId, Time, JobState, Duration redo)>;

  Faults(state::ClusterState& state, Physics& physics, uint64_t seed, Push push, Interrupt interrupt);

  // The first reclaim draw, the injected failures and the first failure draw, in this order.
  void start();
  // Down time is charged from here (the first submission).
  void set_origin(Time origin) { origin_ = origin; }
  Status handle(Time t, const FaultEvent& e);
  // Charges the GPU-hours of nodes still out of service at the end of the run.
  void finish(Time until);

 private:
  Status on_failure(Time t, const FailureEvent& e);
  Status on_injected(Time t, const InjectedFailureEvent& e);
  void draw_failure(Time t);
  Status fail_node(NodeId node, Time t, Duration repair);
  Status fail_jobs(NodeId node, Time t);     // a job-only failure: the node stays in service
  Status kill_runs_on(NodeId node, Time t);  // every run on the node fails
  std::vector<JobId> jobs_on(NodeId node) const;
  void draw_reclaim(Time from);
  void redraw_reclaim(Time t, Time from);
  Status reclaim_node(NodeId node, Time t);
  Status take_down(NodeId node, Time t, Duration away, Time reclaim_from);
  Status bring_up(NodeId node, Time t);
  void node_changed(NodeId node, Time t, Time reclaim_from);
  void charge_down_time(NodeId node, Time until);

  state::ClusterState& state_;
  Physics& physics_;
  const PhysicsOptions& options_;
  Push push_;
  Interrupt interrupt_;
  models::Rng rng_;                   // the one generator of every random process (seeded)
  models::FailureProcess failures_;   // three components per GPU node: host, GPUs, job-only
  std::vector<NodeId> failure_node_;  // per component
  uint32_t failure_version_ = 0;      // the live failure draw; older ones are stale
  std::vector<uint32_t> node_component_;  // per node: its first failure component (kNone: none)
  std::vector<NodeId> spot_nodes_;         // GPU nodes of spot zones
  std::vector<uint8_t> spot_node_;         // per node: in spot_nodes_
  uint32_t reclaim_version_ = 0;           // the live reclaim draw; older ones are stale
  Duration reclaim_away_;                  // how long the live draw's node stays away
  Time reclaim_notice_ = Time::never();    // when the live draw's notice arrives (never: none)
  NodeId reclaim_node_;                    // the live draw's node
  std::vector<Time> down_since_;           // per node: when it went out of service
  Time origin_;
};

}  // namespace boreas::sim
