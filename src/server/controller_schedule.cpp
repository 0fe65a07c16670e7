// The controller's scheduling round, launches, restart recovery and state views.
//
// The policy decides (the same Scheduler objects as the simulator); the controller carries out.

#include <algorithm>
#include <map>

#include "server/controller.h"
#include "server/job_records.h"
#include "state/cluster_view.h"

namespace boreas::server {

// Frees only what the job itself holds, so no exit can free GPUs another job was given.
void Controller::hold_gpus(const LiveJob& job, bool busy) {
  if (job.node < 0) {
    return;
  }
  auto& owners = gpu_owner_[static_cast<size_t>(job.node)];
  for (uint32_t g : job.gpu_indexes) {
    if (g < owners.size() && (busy || owners[g] == job.id.value())) {
      owners[g] = busy ? job.id.value() : 0;
    }
  }
}

// Most free GPUs on one undrained node, per GPU type; index catalog.size() = any type.
std::vector<uint32_t> Controller::most_free_by_type() const {
  const Cluster& c = config_.cluster;
  std::vector<uint32_t> most(c.catalog.size() + 1, 0);
  for (size_t n = 0; n < c.nodes.size(); ++n) {
    if (drained_[n]) {
      continue;
    }
    const auto free = static_cast<uint32_t>(std::count(gpu_owner_[n].begin(), gpu_owner_[n].end(), 0u));
    if (c.nodes[n].gpu_type) {
      uint32_t& m = most[c.nodes[n].gpu_type->value()];
      m = std::max(m, free);
    }
    most.back() = std::max(most.back(), free);
  }
  return most;
}

std::string Controller::why_pending(const LiveJob& job, const std::vector<uint32_t>& most_free) const {
  const auto type = job.request.gpu_type.empty() ? std::nullopt
                                                 : config_.cluster.catalog.find(job.request.gpu_type);
  const uint32_t most = type ? most_free[type->value()] : most_free.back();
  if (most >= job.request.gpus) {
    return "waiting: the " + std::string(config_.scheduler->name()) + " policy starts other jobs first";
  }
  return "no fit: needs " + std::to_string(job.request.gpus) + " GPUs on one undrained node" +
         (job.request.gpu_type.empty() ? "" : " of type " + job.request.gpu_type) +
         "; the most free now is " + std::to_string(most);
}

// The policy's own reason when it gave one this round, else what the daemon sees. A job the plan
// started but the daemon could not place keeps the daemon's view: the policy's reason is older.
void Controller::explain_pending(LiveJob& job, bool planned, const std::vector<uint32_t>& most_free) {
  const policy::PendingReason r =
      planned ? policy::PendingReason{} : config_.scheduler->pending_reason(JobId(job.id.value() - 1));
  job.reason_kind = std::string(policy::to_string(r.kind));
  job.reason = r.kind == policy::PendingKind::kNone ? why_pending(job, most_free) : policy::describe(r);
}

JobSpec Controller::spec_of(const LiveJob& job) {
  JobSpec s;
  s.id = JobId(job.id.value() - 1);  // ClusterState ids are dense from 0
  s.queue = symbols_.intern(job.request.queue);
  s.user = symbols_.intern(job.owner);
  s.priority_class = symbols_.intern(job.request.priority_class);
  s.gpu_types = symbols_.intern(job.request.gpu_type);
  s.kind = job.request.gpus > 0 ? JobKind::kTraining : JobKind::kBatch;
  s.gpus = job.request.gpus;
  s.gpus_per_node = job.request.gpus;  // the local executor runs a job on one node
  s.submit = job.submit;
  s.time_limit = job.request.time_limit;
  s.duration = job.request.time_limit;  // the best estimate a live job offers
  return s;
}

// Maps a start onto one node's local GPU indexes; false when it spans nodes or a drained node.
bool Controller::take_start(const policy::Start& start, const state::ClusterState& st, LiveJob& job) {
  std::vector<uint32_t> local;
  int32_t node = -1;
  for (GpuId g : start.gpus) {
    const int32_t n = static_cast<int32_t>(st.node_of(g).value());
    if ((node >= 0 && n != node) || drained_[static_cast<size_t>(n)]) {
      return false;
    }
    node = n;
    local.push_back(g.value() - config_.cluster.nodes[static_cast<size_t>(n)].first_gpu);
  }
  job.node = start.gpus.empty() ? 0 : node;
  job.gpu_indexes = std::move(local);
  job.reason_kind.clear();
  hold_gpus(job, true);
  return true;
}

// A drained node's free GPUs are held by a non-preemptible placeholder job, so every policy sees
// them as taken without knowing about drains. A stopping job is not preemptible: it is leaving
// already, and choosing it again would evict it twice.
std::vector<JobSpec> Controller::round_specs(std::vector<std::vector<GpuId>>& holds) const {
  std::vector<JobSpec> specs = specs_;
  for (size_t i = 0; i < jobs_.size(); ++i) {
    specs[i].preemptible = specs[i].preemptible && !jobs_[i].stopping;
  }
  for (size_t n = 0; n < drained_.size(); ++n) {
    std::vector<GpuId> free;
    for (uint32_t g = 0; drained_[n] && g < gpu_owner_[n].size(); ++g) {
      if (gpu_owner_[n][g] == 0) {
        free.push_back(GpuId(config_.cluster.nodes[n].first_gpu + g));
      }
    }
    if (!free.empty()) {
      JobSpec hold;
      hold.id = JobId(static_cast<uint32_t>(specs.size()));
      hold.gpus = hold.gpus_per_node = static_cast<uint32_t>(free.size());
      hold.preemptible = false;
      specs.push_back(hold);
      holds.push_back(std::move(free));
    }
  }
  return specs;
}

bool Controller::awaits_victim(const LiveJob& job) const {
  return std::any_of(job.waits_for.begin(), job.waits_for.end(),
                     [&](JobId v) { return jobs_[v.value() - 1].stopping; });
}

// Each job carries its history (time run, times preempted), so attained-service orders and the
// per-job preemption cap see what the simulator's long-lived state would. A job whose planned
// start waits for its victims to exit sits the round out, so the policy cannot evict someone
// else for it meanwhile.
void Controller::fill_state(state::ClusterState& st, const std::vector<std::vector<GpuId>>& holds, Time now) {
  for (LiveJob& j : jobs_) {
    const JobId sid(j.id.value() - 1);
    if (j.state == JobState::kPending && (awaits_victim(j) || waits_on_dependency(j))) {
      continue;
    }
    j.waits_for.clear();
    if (j.state == JobState::kPending || j.state == JobState::kRunning) {
      (void)st.submit(sid, j.submit);
      (void)st.restore(sid, j.ran, j.ran, j.preemptions);  // live jobs run at rate 1
    }
    if (j.state == JobState::kRunning && j.node >= 0) {
      std::vector<GpuId> gpus;
      for (uint32_t g : j.gpu_indexes) {
        gpus.push_back(GpuId(config_.cluster.nodes[static_cast<size_t>(j.node)].first_gpu + g));
      }
      (void)st.start(sid, gpus, j.start);
    }
  }
  for (size_t h = 0; h < holds.size(); ++h) {
    const JobId sid(static_cast<uint32_t>(specs_.size() + h));
    (void)st.submit(sid, now);
    (void)st.start(sid, holds[h], now);
  }
}

// A policy charges usage (fair share) until its next round to the GPUs its plan leaves each job
// holding. A start that waits for its victims leaves them holding their GPUs through their grace
// period, so the round runs again at the same instant (nothing is charged in between): the policy
// then sees the victims holding and the preemptor holding nothing, and charges the holders. Each
// run sets at least one more job aside to wait, so the loop ends; the bound is a guard.
void Controller::schedule() {
  const Time now = config_.clock();
  resolve_dependencies(now);
  bool waits = plan_round(now);
  for (size_t i = 0; waits && i < jobs_.size(); ++i) {
    waits = plan_round(now);
  }
}

// One round: rebuild ClusterState from the live table (its job span is fixed at construction and
// live jobs keep arriving), ask the scheduler for a Plan, carry it out through the executor.
// True when a planned start waits for victims to exit.
bool Controller::plan_round(Time now) {
  std::vector<std::vector<GpuId>> holds;
  const std::vector<JobSpec> specs = round_specs(holds);
  state::ClusterState st(config_.cluster, specs, symbols_);
  fill_state(st, holds, now);
  const policy::Plan plan = config_.scheduler->schedule(state::ClusterView(st, now));
  wake_ = plan.wake_at;
  if (!plan.starts.empty() || !plan.preemptions.empty()) {  // rounds that decide nothing stay quiet
    nlohmann::json starts = nlohmann::json::array();
    nlohmann::json preemptions = nlohmann::json::array();
    for (const policy::Start& start : plan.starts) {
      starts.push_back(start.job.value() + 1);  // API ids
    }
    for (JobId sid : plan.preemptions) {
      preemptions.push_back(sid.value() + 1);
    }
    note("round", {{"policy", config_.scheduler->name()}, {"starts", starts}, {"preemptions", preemptions}});
  }
  return apply_plan(plan, st);
}

void Controller::preempt(LiveJob& victim) {
  if (victim.state != JobState::kRunning || victim.stopping) {
    return;  // asked once already; asking again would only delay its SIGTERM
  }
  (void)executor_.preempt(victim.id);
  victim.stopping = true;
  victim.preemptions += 1;  // counted when the policy decides, as the simulator counts it
  victim.reason = "preempted by the " + std::string(config_.scheduler->name()) +
                  " policy: SIGUSR1 sent; back to the queue when it stops";
  note("job.preempted", {{"job", victim.id.value()}, {"policy", config_.scheduler->name()}});
  write_async({update_job_row(victim, config_.clock())});
}

// The jobs holding any of the start's GPUs: victims of a preemption, still in their grace period.
std::vector<JobId> Controller::holders(const policy::Start& start, const state::ClusterState& st) const {
  std::vector<JobId> out;
  for (GpuId g : start.gpus) {
    const size_t n = st.node_of(g).value();
    const uint32_t owner = gpu_owner_[n][g.value() - config_.cluster.nodes[n].first_gpu];
    if (owner != 0 && std::find(out.begin(), out.end(), JobId(owner)) == out.end()) {
      out.push_back(JobId(owner));
    }
  }
  return out;
}

namespace {
std::string waiting_for(const std::vector<JobId>& victims, std::string_view policy) {
  std::string ids;
  for (JobId v : victims) {
    ids += (ids.empty() ? "" : ", ") + std::to_string(v.value());
  }
  return "waiting for job" + std::string(victims.size() > 1 ? "s " : " ") + ids + " to stop: the " +
         std::string(policy) + " policy preempted it for this job";
}
}  // namespace

// Preemptions first, then starts. A victim keeps its GPUs through its grace period, so a start on
// them waits; the victim's exit triggers the round that places the job again. True when one waits.
bool Controller::apply_plan(const policy::Plan& plan, const state::ClusterState& st) {
  for (JobId sid : plan.preemptions) {
    if (sid.value() < jobs_.size()) {  // else a drain placeholder
      preempt(jobs_[sid.value()]);
    }
  }
  std::vector<LiveJob*> starting;
  std::vector<bool> planned(jobs_.size(), false);
  bool waits = false;
  for (const policy::Start& start : plan.starts) {
    if (start.job.value() >= jobs_.size() || jobs_[start.job.value()].state != JobState::kPending) {
      continue;
    }
    LiveJob& j = jobs_[start.job.value()];
    planned[start.job.value()] = true;
    j.waits_for = holders(start, st);
    if (!j.waits_for.empty()) {
      waits = true;
      j.reason = waiting_for(j.waits_for, config_.scheduler->name());
      j.reason_kind.clear();
    } else if (take_start(start, st, j)) {
      starting.push_back(&j);
    }
  }
  const std::vector<uint32_t> most_free = most_free_by_type();
  for (LiveJob& j : jobs_) {
    if (j.state == JobState::kPending && j.node < 0 && j.waits_for.empty() && !waits_on_dependency(j)) {
      explain_pending(j, planned[j.id.value() - 1], most_free);
    }
  }
  launch_all(starting);
  return waits;
}

LaunchRequest Controller::launch_request(const LiveJob& job) const {
  LaunchRequest r;
  r.job = job.id;
  r.argv = job.request.command;
  for (const auto& [k, v] : job.request.env) {
    r.env.push_back(k + "=" + v);
  }
  r.cwd = job.request.cwd;
  r.gpu_indexes = job.gpu_indexes;
  if (job.node >= 0) {
    r.placement.push_back({config_.cluster.nodes[static_cast<size_t>(job.node)].name, job.gpu_indexes});
  }
  r.time_limit = job.request.time_limit;
  r.started = job.start;
  r.user = job.request.run_as;
  return r;
}

// Launches held, records every identity in one durable write, then lets them run: a crash
// between the two leaves held processes that exit unrun, so no job ever runs twice.
void Controller::launch_all(std::vector<LiveJob*>& starting) {
  const Time now = config_.clock();
  std::vector<SqlStatement> rows;
  std::vector<LiveJob*> held;
  for (LiveJob* j : starting) {
    j->start = now;
    auto id = executor_.launch(launch_request(*j));
    if (id.is_ok()) {
      j->state = JobState::kRunning;
      j->process = *id;
      j->attempts += 1;
      j->reason = "running";
      held.push_back(j);
      note("job.started", {{"job", j->id.value()}, {"node", node_name(j->node)}, {"gpus", j->gpu_indexes},
                           {"pid", j->process.pid}, {"attempt", j->attempts}});
    } else {
      hold_gpus(*j, false);
      j->state = JobState::kFailed;
      j->end = now;
      j->node = -1;
      j->gpu_indexes.clear();
      j->reason = "could not start: " + id.status().message();
      note("job.exited", {{"job", j->id.value()}, {"state", "failed"}, {"reason", j->reason}});
    }
    rows.push_back(update_job_row(*j, now));
  }
  if (rows.empty()) {
    return;
  }
  const bool durable = store_.write_sync({std::move(rows)}).is_ok();
  for (LiveJob* j : held) {
    if (durable) {
      (void)executor_.release(j->id);
      continue;
    }
    (void)executor_.abort(j->id);
    hold_gpus(*j, false);
    j->state = JobState::kPending;
    j->node = -1;
    j->gpu_indexes.clear();
    j->reason = "the store refused the launch record; will retry";
    note("job.launch_aborted", {{"job", j->id.value()}, {"reason", j->reason}});
  }
}

void Controller::reconcile(LiveJob& job) {
  const AdoptOutcome o = executor_.adopt(launch_request(job), job.process);
  if (o.alive) {
    hold_gpus(job, true);
    return;
  }
  apply_exit(o.exit ? *o.exit : JobExit{job.id, ExitKind::kLost, -1});
}

Status Controller::load_drained() {
  auto rows = store_.query({"SELECT name FROM node_state WHERE drained = 1", {}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  for (const SqlRow& r : *rows) {
    const std::string name = as_text(r[0]);
    for (size_t n = 0; n < config_.cluster.nodes.size(); ++n) {
      drained_[n] = drained_[n] || config_.cluster.nodes[n].name == name;
    }
  }
  return Status::ok();
}

Status Controller::recover() {
  auto loaded = load_jobs(store_);
  if (!loaded.is_ok()) {
    return loaded.status();
  }
  BOREAS_RETURN_IF_ERROR(fill_gaps(*loaded));
  jobs_ = std::move(*loaded);
  specs_.clear();
  for (const LiveJob& j : jobs_) {
    specs_.push_back(spec_of(j));
    if (!j.idempotency_key.empty()) {
      idempotent_[{j.owner, j.idempotency_key}] = j.id;
    }
  }
  for (const LiveJob& j : jobs_) {
    BOREAS_RETURN_IF_ERROR(check_allocation(j));
  }
  size_t adopted = 0;
  size_t running = 0;
  for (LiveJob& j : jobs_) {
    if (j.state == JobState::kRunning) {
      running += 1;
      reconcile(j);
      adopted += j.state == JobState::kRunning ? 1 : 0;
    }
  }
  const auto gaps = std::count_if(jobs_.begin(), jobs_.end(), [](const LiveJob& j) { return j.placeholder; });
  note("recovery", {{"jobs", jobs_.size() - static_cast<size_t>(gaps)}, {"recorded_running", running},
                    {"adopted", adopted}, {"ended_while_down", running - adopted}});
  dirty_ = true;
  return load_drained();
}

// Ids of submits that never committed leave gaps; placeholders fill them (index = id - 1).
Status Controller::fill_gaps(std::vector<LiveJob>& loaded) {
  std::vector<LiveJob> dense;
  dense.reserve(loaded.size());
  for (LiveJob& j : loaded) {
    if (j.id.value() <= dense.size()) {
      return internal_error("store: job id " + std::to_string(j.id.value()) +
                            " is out of order; the store may be damaged");
    }
    while (dense.size() + 1 < j.id.value()) {
      dense.push_back(placeholder(JobId(static_cast<uint32_t>(dense.size() + 1))));
    }
    dense.push_back(std::move(j));
  }
  loaded = std::move(dense);
  return Status::ok();
}

// A job recorded running must fit the cluster the daemon has now (the spec may have been edited,
// or NVML found fewer GPUs than when it started), else its GPUs cannot be held for it.
Status Controller::check_allocation(const LiveJob& j) const {
  if (j.state != JobState::kRunning || j.node < 0) {
    return Status::ok();
  }
  const auto& nodes = config_.cluster.nodes;
  const bool node_ok = static_cast<size_t>(j.node) < nodes.size();
  const uint32_t count = node_ok ? nodes[static_cast<size_t>(j.node)].gpu_count : 0;
  const bool gpus_ok =
      std::all_of(j.gpu_indexes.begin(), j.gpu_indexes.end(), [&](uint32_t g) { return g < count; });
  if (node_ok && gpus_ok) {
    return Status::ok();
  }
  std::string gpus;
  for (uint32_t g : j.gpu_indexes) {
    gpus += (gpus.empty() ? "" : ",") + std::to_string(g);
  }
  return conflict(
      "store: job " + std::to_string(j.id.value()) + " is recorded running on node #" + std::to_string(j.node) +
      " GPU(s) " + gpus + ", of which the cluster now has " +
      (node_ok ? "only " + std::to_string(count) + " GPU(s) on (" + nodes[static_cast<size_t>(j.node)].name + ")"
               : "no such node") +
      ": start the daemon with the cluster spec the job started under, or stop its process first");
}

namespace {

// A queue's name and quota, summed over GPU types; a type without a borrow limit makes it unlimited.
QueueView quota_view(const QueueSpec& q) {
  QueueView v;
  v.name = q.name;
  uint32_t borrow = 0;
  bool limited = !q.quotas.empty();
  for (const GpuQuota& quota : q.quotas) {
    v.guaranteed_gpus += quota.guaranteed;
    limited = limited && quota.borrow_limit.has_value();
    borrow += quota.borrow_limit.value_or(0);
  }
  if (limited) {
    v.borrow_limit_gpus = borrow;
  }
  return v;
}

}  // namespace

std::vector<QueueView> Controller::queues() {
  return call<std::vector<QueueView>>([&] {
    std::map<std::string, QueueView> by_name;
    if (config_.queues) {
      for (const QueueSpec& q : config_.queues->queues) {
        by_name[q.name] = quota_view(q);
      }
    }
    for (const LiveJob& j : jobs_) {
      if (j.placeholder) {
        continue;
      }
      QueueView& v = by_name[j.request.queue];
      v.name = j.request.queue;
      v.pending += j.state == JobState::kPending ? 1 : 0;
      v.running += j.state == JobState::kRunning ? 1 : 0;
      v.gpus_in_use += j.state == JobState::kRunning ? j.request.gpus : 0;
    }
    std::vector<QueueView> out;
    for (auto& [name, v] : by_name) {
      out.push_back(v);
    }
    return out;
  });
}

std::vector<NodeView> Controller::nodes() {
  return call<std::vector<NodeView>>([&] {
    std::vector<NodeView> out;
    const Cluster& c = config_.cluster;
    for (size_t n = 0; n < c.nodes.size(); ++n) {
      const Node& node = c.nodes[n];
      NodeView v{node.name, node.gpu_type ? c.catalog.at(*node.gpu_type).name : "", node.gpu_count,
                 0, drained_[n], gpu_owner_[n]};
      v.free_gpus = static_cast<uint32_t>(std::count(gpu_owner_[n].begin(), gpu_owner_[n].end(), 0u));
      out.push_back(v);
    }
    return out;
  });
}

void Controller::refresh_metrics() {
  call<bool>([&] {
    jobs_gauge_->clear();
    gpus_gauge_->clear();
    queue_gpus_gauge_->clear();
    queue_guarantee_gauge_->clear();
    for (const QueueSpec& q : config_.queues ? config_.queues->queues : std::vector<QueueSpec>{}) {
      for (const GpuQuota& quota : q.quotas) {
        queue_guarantee_gauge_->add({q.name, quota.gpu_type}, quota.guaranteed);
      }
    }
    const Cluster& c = config_.cluster;
    for (const LiveJob& j : jobs_) {
      if (j.placeholder) {
        continue;
      }
      jobs_gauge_->add({std::string(to_string(j.state)), j.request.queue});
      if (j.state == JobState::kRunning && j.node >= 0) {
        const Node& n = c.nodes[static_cast<size_t>(j.node)];
        const std::string type = n.gpu_type ? c.catalog.at(*n.gpu_type).name : "none";
        queue_gpus_gauge_->add({j.request.queue, type}, static_cast<double>(j.gpu_indexes.size()));
      }
    }
    for (size_t n = 0; n < c.nodes.size(); ++n) {
      const Node& node = c.nodes[n];
      const std::string type = node.gpu_type ? c.catalog.at(*node.gpu_type).name : "none";
      for (uint32_t owner : gpu_owner_[n]) {
        gpus_gauge_->add({drained_[n] ? "drained" : owner != 0 ? "busy" : "free", type});
      }
    }
    return true;
  });
}

}  // namespace boreas::server
