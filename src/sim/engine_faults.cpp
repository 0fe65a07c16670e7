// Failures in the engine: one FailureProcess over every GPU node (its host, its GPUs, and the
// job-only causes of its GPUs as three components, FACTS §4.1 rates split by cause), drawn from
// the engine's one seeded generator, plus failures placed by hand. A failure kills the runs on the
// node; they lose the work since their last checkpoint, pay the restore and go back to the queue.
// A host or GPU failure takes the node out of service until its repair ends; a job-only failure
// (software, network, NCCL, silent data corruption) leaves it in service.
// Spot reclaims take a node away the same way, for the time the spot model draws.

#include <algorithm>
#include <limits>

#include "sim/engine.h"

namespace boreas::sim {

namespace {
constexpr uint32_t kInjected = std::numeric_limits<uint32_t>::max();  // version of a placed failure
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kComponentsPerNode = 3;  // host, GPUs, job-only; in this order
}  // namespace

void Engine::init_faults() {
  const PhysicsOptions& p = options_.physics;
  const Cluster& cluster = state_.cluster();
  down_since_.assign(cluster.nodes.size(), Time::never());
  spot_node_.assign(cluster.nodes.size(), 0);
  recovering_.assign(jobs_.size(), {});
  node_component_.assign(cluster.nodes.size(), kNone);
  for (uint32_t n = 0; n < cluster.nodes.size() && p.on.spot; ++n) {
    if (cluster.nodes[n].gpu_count > 0 &&
        cluster.zones[cluster.rack_of(cluster.nodes[n]).zone.value()].spot) {
      spot_nodes_.push_back(NodeId(n));
      spot_node_[n] = 1;
    }
  }
  draw_reclaim(Time());
  if (!p.on.failures) {
    return;
  }
  for (uint32_t i = 0; i < p.injected_failures.size(); ++i) {
    heap_.push(Event{p.injected_failures[i].at, seq_++, Kind::kFailure, i, kInjected});
  }
  if (!p.random_failures) {
    return;
  }
  for (uint32_t n = 0; n < cluster.nodes.size(); ++n) {
    const uint32_t gpus = cluster.nodes[n].gpu_count;
    if (gpus == 0) {
      continue;
    }
    node_component_[n] = failures_.add(p.failure.node_mtbf_hours);
    failures_.add(p.failure.gpu_mtbf_hours / gpus);       // any of its GPUs
    failures_.add(p.failure.job_only_mtbf_hours / gpus);  // a job-only cause on any of its GPUs
    for (uint32_t c = 0; c < kComponentsPerNode; ++c) {
      failure_node_.push_back(NodeId(n));
    }
  }
  draw_failure(Time());
}

// Random failures (the live draw only), injected failures, reclaims and returns.
Status Engine::handle_fault(const Event& e) {
  const PhysicsOptions& p = options_.physics;
  if (e.kind == Kind::kNodeBack) {
    return bring_up(NodeId(e.job), e.time);
  }
  if (e.kind == Kind::kSpot) {
    return e.version == reclaim_version_ ? reclaim_node(NodeId(e.job), e.time) : Status::ok();
  }
  if (e.version == kInjected) {
    const InjectedFailure& f = p.injected_failures[e.job];
    const Duration repair = f.repair ? *f.repair : models::draw_repair(p.failure, models::ComponentKind::kNode, rng_);
    return fail_node(f.node, e.time, repair);
  }
  if (e.version != failure_version_) {
    return Status::ok();
  }
  // Components are added in threes per node: the host, its GPUs, its job-only causes.
  const uint32_t component = e.job % kComponentsPerNode;
  if (component == 2) {
    return fail_jobs(failure_node_[e.job], e.time);
  }
  const auto kind = component == 0 ? models::ComponentKind::kNode : models::ComponentKind::kGpu;
  return fail_node(failure_node_[e.job], e.time, models::draw_repair(p.failure, kind, rng_));
}

// Exponential draws are memoryless, so the next failure is drawn afresh after each one and
// whenever the set of nodes in service changes.
void Engine::draw_failure(Time t) {
  ++failure_version_;
  if (auto next = failures_.next(rng_)) {
    heap_.push(Event{t + next->after, seq_++, Kind::kFailure, next->component, failure_version_});
  }
}

// The jobs running on a node, each once.
std::vector<JobId> Engine::jobs_on(NodeId node) const {
  const Node& n = state_.cluster().nodes[node.value()];
  std::vector<JobId> jobs;
  for (uint32_t g = n.first_gpu; g < n.first_gpu + n.gpu_count; ++g) {
    const JobId owner = state_.gpu_owner(GpuId(g));
    if (owner.valid() && std::find(jobs.begin(), jobs.end(), owner) == jobs.end()) {
      jobs.push_back(owner);
    }
  }
  return jobs;
}

// A failure of a node already out of service (only an injected one can hit it) changes nothing.
Status Engine::fail_node(NodeId node, Time t, Duration repair) {
  if (state_.node_down(node)) {
    return Status::ok();
  }
  ++physics_->totals().failures;
  BOREAS_RETURN_IF_ERROR(kill_runs_on(node, t));
  return take_down(node, t, repair, t);
}

// A job-only failure: the runs on the node die, the node stays in service. On a node with no run
// there is nothing to kill, and it is not counted. The next failure is drawn afresh.
Status Engine::fail_jobs(NodeId node, Time t) {
  if (!jobs_on(node).empty()) {
    ++physics_->totals().failures;
    BOREAS_RETURN_IF_ERROR(kill_runs_on(node, t));
  }
  draw_failure(t);
  return Status::ok();
}

Status Engine::kill_runs_on(NodeId node, Time t) {
  PhysicsTotals& totals = physics_->totals();
  const std::vector<JobId> victims = jobs_on(node);
  for (JobId j : victims) {
    ++totals.interrupted_runs;
    const Duration redo = physics_->lost_on_kill(j, t);
    BOREAS_RETURN_IF_ERROR(interrupt(j, t, JobState::kFailed, redo));
  }
  return Status::ok();
}

// Spot reclaims (models::next_reclaim): notices form one exponential process over the spot nodes
// in service; a reclaim follows its notice by the notice period. Jobs on the node get the notice:
// those whose checkpoint write fits in it lose nothing but the restore. The node stays away for
// the drawn time. The next notice is drawn from this one's instant (memoryless), so the notice
// period is no dead time in the process.
void Engine::draw_reclaim(Time from) {
  ++reclaim_version_;
  reclaim_notice_ = Time::never();
  std::vector<NodeId> up;
  for (NodeId n : spot_nodes_) {
    if (!state_.node_down(n)) {
      up.push_back(n);
    }
  }
  if (up.empty()) {
    return;
  }
  const models::SpotReclaim r =
      models::next_reclaim(options_.physics.spot, static_cast<uint32_t>(up.size()), rng_);
  reclaim_notice_ = from + r.notice_after;
  reclaim_node_ = up[r.node];
  reclaim_away_ = r.returns_after - r.reclaim_after;
  heap_.push(Event{from + r.reclaim_after, seq_++, Kind::kSpot, reclaim_node_.value(), reclaim_version_});
}

// The spot nodes in service changed at t: a reclaim whose notice is out still happens (unless its
// node went down meanwhile); otherwise the next notice is drawn afresh over the nodes now up.
// `from`: when the exponential clock starts (t, or the notice of the reclaim that just happened).
void Engine::redraw_reclaim(Time t, Time from) {
  if (!reclaim_notice_.is_never() && reclaim_notice_ <= t && !state_.node_down(reclaim_node_)) {
    return;
  }
  draw_reclaim(from);
}

Status Engine::reclaim_node(NodeId node, Time t) {
  ++physics_->totals().spot_reclaims;
  const Time notice = reclaim_notice_;
  const std::vector<JobId> victims = jobs_on(node);
  for (JobId j : victims) {
    const Duration redo = physics_->redo_after_notice(j, t, options_.physics.spot.notice);
    BOREAS_RETURN_IF_ERROR(interrupt(j, t, JobState::kPreempted, redo));
  }
  reclaim_notice_ = Time::never();  // consumed; taking the node down draws the next one
  return take_down(node, t, reclaim_away_, notice);
}

// Out of service: no free GPUs in any index until the node is back after `away`.
Status Engine::take_down(NodeId node, Time t, Duration away, Time reclaim_from) {
  BOREAS_RETURN_IF_ERROR(state_.take_down(node));
  down_since_[node.value()] = t;
  heap_.push(Event{t + away, seq_++, Kind::kNodeBack, node.value(), 0});
  node_changed(node, t, reclaim_from);
  return Status::ok();
}

Status Engine::bring_up(NodeId node, Time t) {
  BOREAS_RETURN_IF_ERROR(state_.bring_up(node));
  charge_down_time(node, t);
  down_since_[node.value()] = Time::never();
  node_changed(node, t, t);
  return Status::ok();
}

// A node out of service neither fails nor is reclaimed: its components follow its state and the
// processes it belongs to are redrawn (the reclaim process from `reclaim_from`).
void Engine::node_changed(NodeId node, Time t, Time reclaim_from) {
  const uint32_t c = node_component_[node.value()];
  if (c != kNone) {
    const bool up = !state_.node_down(node);
    for (uint32_t k = 0; k < kComponentsPerNode; ++k) {
      failures_.set_enabled(c + k, up);
    }
    draw_failure(t);
  }
  if (spot_node_[node.value()]) {
    redraw_reclaim(t, reclaim_from);
  }
}

// Recovery time (docs/formats/sim-output.md): a failure or reclaim at t stops the run and adds the
// lost work and the restore to what the job has left. The job has regained its progress when its
// remaining work is back to what it was just before t: the requeue wait, the restore and the
// recomputation all count.
Status Engine::interrupt(JobId job, Time t, JobState end_state, Duration redo) {
  const Duration left = state_.remaining_at(job, t);
  BOREAS_RETURN_IF_ERROR(stop_run(job, t, end_state, redo));
  recovering_[job.value()].push_back(Interruption{t, left});
  return Status::ok();
}

// Called while the job runs at its current rate, before the run stops or the rate changes, so the
// instant its remaining work crossed an interruption's is exact: t − (that − remaining) / rate.
void Engine::check_recovery(JobId job, Time t) {
  if (recovering_.empty() || recovering_[job.value()].empty()) {
    return;
  }
  const Duration left = state_.remaining_at(job, t);
  const double rate = state_.record(job).rate;
  std::erase_if(recovering_[job.value()], [&](const Interruption& i) {
    if (left > i.left || rate <= 0) {
      return false;
    }
    const Time regained = t - Duration::from_seconds((i.left - left).to_seconds() / rate);
    result_.recovery_s.push_back((regained - i.at).to_seconds());
    return true;
  });
}

// GPU-hours out of service from when the node went down (or the first submission) until `until`.
void Engine::charge_down_time(NodeId node, Time until) {
  const Time since = down_since_[node.value()];
  if (since.is_never()) {
    return;
  }
  const Time from = std::max(since, result_.first_submit);
  if (until > from) {
    physics_->totals().down_gpu_hours +=
        (until - from).to_seconds() / 3600.0 * state_.cluster().nodes[node.value()].gpu_count;
  }
}

}  // namespace boreas::sim
