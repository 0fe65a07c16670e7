// The fault processes (sim/faults.h): failures, injected failures and spot reclaims.

#include "sim/faults.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace boreas::sim {

namespace {
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kComponentsPerNode = 3;  // host, GPUs, job-only; in this order
}  // namespace

Faults::Faults(state::ClusterState& state, Physics& physics, uint64_t seed, Push push, Interrupt interrupt)
    : state_(state),
      physics_(physics),
      options_(physics.options()),
      push_(std::move(push)),
      interrupt_(std::move(interrupt)),
      rng_(seed) {
  const Cluster& cluster = state_.cluster();
  down_since_.assign(cluster.nodes.size(), Time::never());
  spot_node_.assign(cluster.nodes.size(), 0);
  node_component_.assign(cluster.nodes.size(), kNone);
  for (uint32_t n = 0; n < cluster.nodes.size() && options_.on.spot; ++n) {
    if (cluster.nodes[n].gpu_count > 0 && cluster.zones[cluster.rack_of(cluster.nodes[n]).zone.value()].spot) {
      spot_nodes_.push_back(NodeId(n));
      spot_node_[n] = 1;
    }
  }
}

void Faults::start() {
  const PhysicsOptions& p = options_;
  draw_reclaim(Time());
  if (!p.on.failures) {
    return;
  }
  for (uint32_t i = 0; i < p.injected_failures.size(); ++i) {
    push_(p.injected_failures[i].at, InjectedFailureEvent{i});
  }
  if (!p.random_failures) {
    return;
  }
  const Cluster& cluster = state_.cluster();
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
Status Faults::handle(Time t, const FaultEvent& e) {
  if (const auto* f = std::get_if<FailureEvent>(&e)) {
    return on_failure(t, *f);
  }
  if (const auto* f = std::get_if<InjectedFailureEvent>(&e)) {
    return on_injected(t, *f);
  }
  if (const auto* r = std::get_if<ReclaimEvent>(&e)) {
    return r->version == reclaim_version_ ? reclaim_node(r->node, t) : Status::ok();
  }
  return bring_up(std::get<NodeBackEvent>(e).node, t);
}

Status Faults::on_injected(Time t, const InjectedFailureEvent& e) {
  const InjectedFailure& f = options_.injected_failures[e.index];
  const Duration repair =
      f.repair ? *f.repair : models::draw_repair(options_.failure, models::ComponentKind::kNode, rng_);
  return fail_node(f.node, t, repair);
}

Status Faults::on_failure(Time t, const FailureEvent& e) {
  if (e.version != failure_version_) {
    return Status::ok();
  }
  // Components are added in threes per node: the host, its GPUs, its job-only causes.
  const uint32_t component = e.component % kComponentsPerNode;
  if (component == 2) {
    return fail_jobs(failure_node_[e.component], t);
  }
  const auto kind = component == 0 ? models::ComponentKind::kNode : models::ComponentKind::kGpu;
  return fail_node(failure_node_[e.component], t, models::draw_repair(options_.failure, kind, rng_));
}

// Exponential draws are memoryless, so the next failure is drawn afresh after each one and
// whenever the set of nodes in service changes.
void Faults::draw_failure(Time t) {
  ++failure_version_;
  if (auto next = failures_.next(rng_)) {
    push_(t + next->after, FailureEvent{next->component, failure_version_});
  }
}

// The jobs running on a node, each once.
std::vector<JobId> Faults::jobs_on(NodeId node) const {
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
Status Faults::fail_node(NodeId node, Time t, Duration repair) {
  if (state_.node_down(node)) {
    return Status::ok();
  }
  ++physics_.totals().failures;
  BOREAS_RETURN_IF_ERROR(kill_runs_on(node, t));
  return take_down(node, t, repair, t);
}

// A job-only failure: the runs on the node die, the node stays in service. On a node with no run
// there is nothing to kill, and it is not counted. The next failure is drawn afresh.
Status Faults::fail_jobs(NodeId node, Time t) {
  if (!jobs_on(node).empty()) {
    ++physics_.totals().failures;
    BOREAS_RETURN_IF_ERROR(kill_runs_on(node, t));
  }
  draw_failure(t);
  return Status::ok();
}

Status Faults::kill_runs_on(NodeId node, Time t) {
  PhysicsTotals& totals = physics_.totals();
  const std::vector<JobId> victims = jobs_on(node);
  for (JobId j : victims) {
    ++totals.interrupted_runs;
    const Duration redo = physics_.lost_on_kill(j, t);
    BOREAS_RETURN_IF_ERROR(interrupt_(j, t, JobState::kFailed, redo));
  }
  return Status::ok();
}

// Spot reclaims (models::next_reclaim): notices form one exponential process over the spot nodes
// in service; a reclaim follows its notice by the notice period. Jobs on the node get the notice:
// those whose checkpoint write fits in it lose nothing but the restore. The node stays away for
// the drawn time. The next notice is drawn from this one's instant (memoryless), so the notice
// period is no dead time in the process.
void Faults::draw_reclaim(Time from) {
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
  const models::SpotReclaim r = models::next_reclaim(options_.spot, static_cast<uint32_t>(up.size()), rng_);
  reclaim_notice_ = from + r.notice_after;
  reclaim_node_ = up[r.node];
  reclaim_away_ = r.returns_after - r.reclaim_after;
  push_(from + r.reclaim_after, ReclaimEvent{reclaim_node_, reclaim_version_});
}

// The spot nodes in service changed at t: a reclaim whose notice is out still happens (unless its
// node went down meanwhile); otherwise the next notice is drawn afresh over the nodes now up.
// `from`: when the exponential clock starts (t, or the notice of the reclaim that just happened).
void Faults::redraw_reclaim(Time t, Time from) {
  if (!reclaim_notice_.is_never() && reclaim_notice_ <= t && !state_.node_down(reclaim_node_)) {
    return;
  }
  draw_reclaim(from);
}

Status Faults::reclaim_node(NodeId node, Time t) {
  ++physics_.totals().spot_reclaims;
  const Time notice = reclaim_notice_;
  const std::vector<JobId> victims = jobs_on(node);
  for (JobId j : victims) {
    const Duration redo = physics_.redo_after_notice(j, t, options_.spot.notice);
    BOREAS_RETURN_IF_ERROR(interrupt_(j, t, JobState::kPreempted, redo));
  }
  reclaim_notice_ = Time::never();  // consumed; taking the node down draws the next one
  return take_down(node, t, reclaim_away_, notice);
}

// Out of service: no free GPUs in any index until the node is back after `away`.
Status Faults::take_down(NodeId node, Time t, Duration away, Time reclaim_from) {
  BOREAS_RETURN_IF_ERROR(state_.take_down(node));
  down_since_[node.value()] = t;
  push_(t + away, NodeBackEvent{node});
  node_changed(node, t, reclaim_from);
  return Status::ok();
}

Status Faults::bring_up(NodeId node, Time t) {
  BOREAS_RETURN_IF_ERROR(state_.bring_up(node));
  charge_down_time(node, t);
  down_since_[node.value()] = Time::never();
  node_changed(node, t, t);
  return Status::ok();
}

// A node out of service neither fails nor is reclaimed: its components follow its state and the
// processes it belongs to are redrawn (the reclaim process from `reclaim_from`).
void Faults::node_changed(NodeId node, Time t, Time reclaim_from) {
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

void Faults::finish(Time until) {
  for (uint32_t n = 0; n < down_since_.size(); ++n) {
    charge_down_time(NodeId(n), until);
  }
}

// GPU-hours out of service from when the node went down (or the first submission) until `until`.
void Faults::charge_down_time(NodeId node, Time until) {
  const Time since = down_since_[node.value()];
  if (since.is_never()) {
    return;
  }
  const Time from = std::max(since, origin_);
  if (until > from) {
    physics_.totals().down_gpu_hours +=
        (until - from).to_seconds() / 3600.0 * state_.cluster().nodes[node.value()].gpu_count;
  }
}

}  // namespace boreas::sim
