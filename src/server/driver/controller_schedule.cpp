// The controller's scheduling round, launches, restart recovery and state views.
//
// The policy decides (the same Scheduler objects as the simulator); the controller carries out.

#include <algorithm>
#include <map>

#include "server/driver/controller.h"
#include "server/jobs/gang_shape.h"
#include "server/jobs/output_path.h"
#include "server/jobs/job_records.h"
#include "server/jobs/node_resources.h"
#include "server/store/node_rows.h"
#include "state/cluster_view.h"

namespace boreas::server {

// Most free GPUs on one undrained node, per GPU type; index catalog.size() = any type. A drained
// node has none: the state keeps it cordoned.
std::vector<uint32_t> Controller::most_free_by_type() const {
  const Cluster& c = config_.cluster;
  std::vector<uint32_t> most(c.catalog.size() + 1, 0);
  for (size_t n = 0; n < c.nodes.size(); ++n) {
    const uint32_t free = state_->node_free(NodeId(static_cast<uint32_t>(n)));
    if (c.nodes[n].gpu_type) {
      uint32_t& m = most[c.nodes[n].gpu_type->value()];
      m = std::max(m, free);
    }
    most.back() = std::max(most.back(), free);
  }
  return most;
}

// Written into OUT (cleared first). The text depends on the job's GPU count and type only, so a
// round builds it once per (count, type) (why_text) rather than once per pending job.
void Controller::why_pending(const LiveJob& job, const std::vector<uint32_t>& most_free, std::string& out) const {
  const auto type = job.request.gpu_type.empty() ? std::nullopt
                                                 : config_.cluster.catalog.find(job.request.gpu_type);
  const uint32_t most = type ? most_free[type->value()] : most_free.back();
  const std::string& typed = job.request.gpu_type;
  out.clear();
  if (most >= job.request.gpus) {
    out.append("waiting: the ").append(config_.scheduler->name()).append(" policy starts other jobs first");
    return;
  }
  if (const uint32_t per = largest_node_of(typed); job.request.gpus > per) {
    out.append("no fit: a gang of ").append(std::to_string(job.request.gpus)).append(" GPUs needs ");
    out.append(std::to_string(job.request.gpus / std::max(per, 1u))).append(" whole free undrained nodes of ");
    out.append(std::to_string(per)).append(typed.empty() ? "" : " ").append(typed);
    out.append(" GPUs (one Slurm job, the same count on every node); the most free on one node now is ");
    out.append(std::to_string(most));
    return;
  }
  out.append("no fit: needs ").append(std::to_string(job.request.gpus)).append(" GPUs on one undrained node");
  if (!typed.empty()) {
    out.append(" of type ").append(typed);
  }
  out.append("; the most free now is ").append(std::to_string(most));
}

// why_pending's text for this job, from the round's memo (cleared by explain_all).
const std::string& Controller::why_text(const LiveJob& job, const std::vector<uint32_t>& most_free) {
  for (const ReasonMemo& m : reason_memo_) {
    if (m.gpus == job.request.gpus && m.gpu_type == job.request.gpu_type) {
      return m.text;
    }
  }
  ReasonMemo& m = reason_memo_.emplace_back();
  m.gpus = job.request.gpus;
  m.gpu_type = job.request.gpu_type;
  why_pending(job, most_free, m.text);
  return m.text;
}

// The policy's own reason when it gave one this round, else what the daemon sees. A job the plan
// started but the daemon could not place keeps the daemon's view: the policy's reason is older.
// The job's strings are assigned only when they change (their buffers are kept).
void Controller::explain_pending(LiveJob& job, JobId slot, bool planned, const std::vector<uint32_t>& most_free) {
  const policy::PendingReason r = planned ? policy::PendingReason{} : reasons_.reason(slot);
  const std::string_view kind = policy::to_string(r.kind);
  if (job.reason_kind != kind) {
    job.reason_kind.assign(kind);
  }
  if (r.kind != policy::PendingKind::kNone) {
    reason_scratch_ = policy::describe(r);
  }
  const std::string& text = r.kind == policy::PendingKind::kNone ? why_text(job, most_free) : reason_scratch_;
  if (job.reason != text) {
    job.reason = text;
  }
}

// Every pending job in the state gets its reason, walked through the state's pending set and the
// slot -> job table: a round touches the pending jobs only, not every job in memory, and looks
// none up by id. Jobs set aside (victims, dependencies) are not in the state and keep theirs.
void Controller::explain_all(const std::set<uint32_t>& planned, const std::vector<uint32_t>& most_free) {
  reason_memo_.clear();
  for (JobId slot : state_->pending()) {
    LiveJob* j = slot_live_[slot.value()];
    if (j != nullptr && j->state == JobState::kPending && j->placement.empty() && j->waits_for.empty() &&
        !waits_on_dependency(*j)) {
      explain_pending(*j, slot, planned.count(j->id.value()) > 0, most_free);
    }
  }
}

JobSpec Controller::spec_of(const LiveJob& job) {
  JobSpec s;
  s.id = slot_of(job.id);  // the state's id; add_job gives a new job its own
  s.queue = symbols_.intern(job.request.queue);
  s.user = symbols_.intern(job.owner);
  s.priority_class = symbols_.intern(job.request.priority_class);
  s.gpu_types = symbols_.intern(job.request.gpu_type);
  s.kind = job.request.gpus > 0 ? JobKind::kTraining : JobKind::kBatch;
  s.preemptible = !job.request.shares_gpu();  // a policy that evicts a share would not free its GPU
  s.gpus = job.request.gpus;
  // A job that fits a node runs on one; a larger gang (executors that span nodes) takes any shape
  // the placement gives, and take_start keeps only even ones.
  const bool gang = job.request.gpus > largest_node_of(job.request.gpu_type);
  s.gpus_per_node = gang ? 0 : job.request.gpus;
  s.submit = job.submit;
  s.time_limit = job.request.time_limit;
  s.duration = job.request.time_limit;  // the best estimate a live job offers
  return s;
}

// largest_node, remembered per type name: spec_of runs for every job entering the state.
uint32_t Controller::largest_node_of(const std::string& type) const {
  const auto [it, fresh] = largest_node_.try_emplace(type, 0);
  if (fresh) {
    it->second = largest_node(config_.cluster, type);
  }
  return it->second;
}

// Maps a start onto node-local GPU indexes, node by node; nullopt when it touches a drained node
// (a plan can still name one: the GPUs of a victim preempted there).
std::optional<std::vector<JobNode>> Controller::placement_of(const policy::Start& start) const {
  std::map<int32_t, std::vector<uint32_t>> by_node;
  for (GpuId g : start.gpus) {
    const auto n = state_->node_of(g).value();
    if (drained_[n]) {
      return std::nullopt;
    }
    by_node[static_cast<int32_t>(n)].push_back(g.value() - config_.cluster.nodes[n].first_gpu);
  }
  std::vector<JobNode> out;
  for (auto& [node, gpus] : by_node) {
    out.push_back({node, std::move(gpus)});
  }
  if (out.empty()) {
    out.push_back({0, {}});  // a job without GPUs runs on the first node
  }
  return out;
}

// A start the executor can run: one node, or (an executor that spans nodes) the same GPU count on
// every node, as Slurm's per-node --gres gives. Else the job waits for another round.
bool Controller::take_start(const policy::Start& start, LiveJob& job) {
  auto placement = placement_of(start);
  if (!placement) {
    return false;
  }
  const auto uneven = [&](const JobNode& p) { return p.gpus.size() != placement->front().gpus.size(); };
  if (placement->size() > 1 && (!executor_.spans_nodes() || std::any_of(placement->begin(), placement->end(), uneven))) {
    return false;
  }
  job.placement = std::move(*placement);
  job.reason_kind.clear();
  return true;
}

bool Controller::awaits_victim(const LiveJob& job) {
  return std::any_of(job.waits_for.begin(), job.waits_for.end(), [&](JobId v) {
    const LiveJob* victim = find(v);
    return victim != nullptr && victim->stopping;
  });
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
  for (size_t i = 0; waits && i <= jobs_.size(); ++i) {
    waits = plan_round(now);
  }
  start_shares();  // share_starts.cpp: jobs on a share of one GPU, which the policy does not place
}

// One round: the scheduler sees the long-lived state (jobs set aside for their victims come back
// once those exited), returns a Plan, and the controller carries it out through the executor.
// True when a planned start waits for victims to exit.
bool Controller::plan_round(Time now) {
  bring_back_set_aside();
  const policy::Plan plan = config_.scheduler->schedule(state::ClusterView(*state_, now));
  reasons_.apply(plan.reasons);
  wake_ = plan.wake_at;
  if (!plan.starts.empty() || !plan.preemptions.empty()) {  // rounds that decide nothing stay quiet
    nlohmann::json starts = nlohmann::json::array();
    nlohmann::json preemptions = nlohmann::json::array();
    for (const policy::Start& start : plan.starts) {
      starts.push_back(slot_job_[start.job.value()]);  // API ids
    }
    for (JobId slot : plan.preemptions) {
      preemptions.push_back(slot_job_[slot.value()]);
    }
    note("round", {{"policy", config_.scheduler->name()}, {"starts", starts}, {"preemptions", preemptions}});
  }
  return apply_plan(plan);
}

void Controller::preempt(LiveJob& victim) {
  if (victim.state != JobState::kRunning || victim.stopping) {
    return;  // asked once already; asking again would only delay its SIGTERM
  }
  (void)executor_.preempt(victim.id);
  set_stopping(victim);
  victim.preemptions += 1;  // counted when the policy decides, as the simulator counts it
  victim.reason = "preempted by the " + std::string(config_.scheduler->name()) +
                  " policy: SIGUSR1 sent; back to the queue when it stops";
  note("job.preempted", {{"job", victim.id.value()}, {"policy", config_.scheduler->name()}});
  write_async({update_job_row(victim, config_.clock())});
}

// The jobs holding any of the start's GPUs: victims of a preemption, still in their grace period.
std::vector<JobId> Controller::holders(const policy::Start& start) const {
  std::vector<JobId> out;
  for (GpuId g : start.gpus) {
    const uint32_t owner = job_at(g);
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
// them waits (set aside); the victim's exit triggers the round that places the job again. True
// when one waits.
bool Controller::apply_plan(const policy::Plan& plan) {
  for (JobId slot : plan.preemptions) {
    if (LiveJob* victim = find(JobId(slot_job_[slot.value()]))) {
      preempt(*victim);
    }
  }
  std::vector<LiveJob*> starting;
  std::set<uint32_t> planned;
  bool waits = false;
  std::optional<NodeLoad> load;  // CPUs and memory, which the policy does not see: built at the first start
  std::vector<std::pair<LiveJob*, std::string>> no_room;
  for (const policy::Start& start : plan.starts) {
    LiveJob* j = find(JobId(slot_job_[start.job.value()]));
    if (j == nullptr || j->state != JobState::kPending) {
      continue;
    }
    planned.insert(j->id.value());
    j->waits_for = holders(start);
    if (!j->waits_for.empty()) {
      waits = true;
      j->reason = waiting_for(j->waits_for, config_.scheduler->name());
      j->reason_kind.clear();
      (void)set_aside(*j);
    } else if (take_start(start, *j)) {
      if (!load) {
        load.emplace(config_.cluster, jobs_);
      }
      if (auto why = load->admit(*j, drained_)) {
        no_room.emplace_back(j, std::move(*why));
      } else {
        starting.push_back(j);
      }
    }
  }
  launch_all(starting);
  // After the launches: the free GPUs a reason quotes are those the starts left.
  explain_all(planned, most_free_by_type());
  for (auto& [j, why] : no_room) {
    j->reason = std::move(why);
    j->reason_kind = "no-fit";
  }
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
  r.gpu_indexes = job.placement.empty() ? std::vector<uint32_t>{} : job.placement.front().gpus;
  for (const JobNode& p : job.placement) {
    r.placement.push_back({node_name(p.node), p.gpus});
  }
  if (!job.placement.empty() && job.placement.front().node >= 0) {  // per node: the first's share
    const JobNode& first = job.placement.front();
    const JobResources held = held_on(job.request, first, config_.cluster.nodes[static_cast<size_t>(first.node)]);
    r.cpu_milli = held.cpu_milli;
    r.memory_mib = held.memory_mib;
  }
  r.gpu_share_milli = job.share_milli;
  r.gpu_share_bytes = job.share_bytes;
  r.time_limit = job.request.time_limit;
  r.started = job.start;
  r.user = job.request.run_as;
  r.stdout_path = expand_output_pattern(job.request.output, job.id, job.request.name);
  r.stderr_path = expand_output_pattern(job.request.error, job.id, job.request.name);
  return r;
}

// Launches held, records every identity in one durable write, then lets them run: a crash
// between the two leaves held processes that exit unrun, so no job ever runs twice.
void Controller::launch_all(std::vector<LiveJob*>& starting) {
  const Time now = config_.clock();
  std::vector<SqlStatement> rows;
  std::vector<LiveJob*> held;
  std::vector<LiveJob*> failed;
  for (LiveJob* j : starting) {
    j->start = now;
    auto id = executor_.launch(launch_request(*j));
    if (id.is_ok()) {
      j->state = JobState::kRunning;
      j->process = *id;
      j->attempts += 1;
      j->reason = "running";
      held.push_back(j);
      note("job.started", {{"job", j->id.value()}, {"nodes", placement_json(*j)}, {"pid", j->process.pid},
                           {"attempt", j->attempts}});
    } else {
      failed.push_back(j);
      j->state = JobState::kFailed;
      j->end = now;
      j->placement.clear();
      j->reason = "could not start: " + id.status().message();
      note("job.exited", {{"job", j->id.value()}, {"state", "failed"}, {"reason", j->reason}});
    }
    rows.push_back(update_job_row(*j, now));
  }
  if (rows.empty()) {
    return;
  }
  const Status stored = store_.write_sync({std::move(rows)});
  const bool durable = stored.is_ok();
  for (LiveJob* j : failed) {
    state_cancelled(*j);
    std::promise<Status> written;
    written.set_value(stored);
    retire(*j, written.get_future());
  }
  for (LiveJob* j : held) {
    if (durable) {
      state_started(*j);
      (void)executor_.release(j->id);
      continue;
    }
    (void)executor_.abort(j->id);
    j->state = JobState::kPending;
    j->placement.clear();
    j->reason = "the store refused the launch record; will retry";
    note("job.launch_aborted", {{"job", j->id.value()}, {"reason", j->reason}});
  }
}

// The jobs recorded running whose process is gone, with how they ended. Asked before the state is
// built: a job that ended just before a crash may still be recorded on GPUs a later launch got.
std::vector<JobExit> Controller::reconcile() {
  std::vector<JobExit> gone;
  for (auto& [id, j] : jobs_) {
    if (j.state == JobState::kRunning) {
      const AdoptOutcome o = executor_.adopt(launch_request(j), j.process);
      if (!o.alive) {
        gone.push_back(o.exit ? *o.exit : JobExit{j.id, ExitKind::kLost, -1});
      }
    }
  }
  return gone;
}

Status Controller::load_drained() {
  auto rows = read_drained_nodes(store_);
  if (!rows.is_ok()) {
    return rows.status();
  }
  for (const DrainedNodeRow& row : *rows) {
    for (size_t n = 0; n < config_.cluster.nodes.size(); ++n) {
      if (config_.cluster.nodes[n].name == row.name) {
        drained_[n] = true;
        executor_drained_[n] = row.drained_by == "executor";
      }
    }
  }
  return Status::ok();
}

// Only jobs not ended are read: restart time and memory do not grow with history. Running jobs
// enter the state on their recorded GPUs, then are adopted or ended by what their process did.
Status Controller::recover() {
  BOREAS_RETURN_IF_ERROR(load_drained());
  auto last = max_job_id(store_);
  auto loaded = load_active_jobs(store_);
  if (!last.is_ok() || !loaded.is_ok()) {
    return last.is_ok() ? loaded.status() : last.status();
  }
  last_id_ = *last;
  auto ended = count_ended_jobs(store_);
  if (!ended.is_ok()) {
    return ended.status();
  }
  ended_counts_ = std::move(*ended);
  for (LiveJob& j : *loaded) {
    BOREAS_RETURN_IF_ERROR(check_allocation(j));
    if (!j.idempotency_key.empty()) {
      idempotent_[{j.owner, j.idempotency_key}] = j.id;
    }
    with_dependency_ += j.request.dependency.empty() ? 0 : 1;
    LiveJob& kept = jobs_.emplace(j.id.value(), std::move(j)).first->second;
    slot_live_[add_slot(kept).value()] = &kept;
  }
  const auto running = static_cast<size_t>(
      std::count_if(jobs_.begin(), jobs_.end(), [](const auto& e) { return e.second.state == JobState::kRunning; }));
  const std::vector<JobExit> gone = reconcile();
  for (const JobExit& e : gone) {
    unplaced_.insert(e.job.value());
  }
  const Status built = fill_state();
  unplaced_.clear();
  if (!built.is_ok()) {
    return built.with_context("store: the jobs running now do not fit the cluster together: ");
  }
  for (const JobExit& e : gone) {
    apply_exit(e);
  }
  note("recovery", {{"active_jobs", jobs_.size()}, {"last_id", last_id_}, {"recorded_running", running},
                    {"adopted", running - gone.size()}, {"ended_while_down", gone.size()}});
  dirty_ = true;
  next_prune_ = config_.clock();
  return Status::ok();
}

// A job recorded running must fit the cluster the daemon has now (the spec may have been edited,
// or NVML found fewer GPUs than when it started), else its GPUs cannot be held for it.
Status Controller::check_allocation(const LiveJob& j) const {
  if (j.state != JobState::kRunning) {
    return Status::ok();
  }
  for (const JobNode& p : j.placement) {
    BOREAS_RETURN_IF_ERROR(check_node_allocation(j.id, p));
  }
  return Status::ok();
}

Status Controller::check_node_allocation(JobId id, const JobNode& p) const {
  const auto& nodes = config_.cluster.nodes;
  const bool node_ok = p.node >= 0 && static_cast<size_t>(p.node) < nodes.size();
  const uint32_t count = node_ok ? nodes[static_cast<size_t>(p.node)].gpu_count : 0;
  const bool gpus_ok = std::all_of(p.gpus.begin(), p.gpus.end(), [&](uint32_t g) { return g < count; });
  if (node_ok && gpus_ok) {
    return Status::ok();
  }
  std::string gpus;
  for (uint32_t g : p.gpus) {
    gpus += (gpus.empty() ? "" : ",") + std::to_string(g);
  }
  return conflict(
      "store: job " + std::to_string(id.value()) + " is recorded running on node #" + std::to_string(p.node) +
      " GPU(s) " + gpus + ", of which the cluster now has " +
      (node_ok ? "only " + std::to_string(count) + " GPU(s) on (" + nodes[static_cast<size_t>(p.node)].name + ")"
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
    for (const auto& [id, j] : jobs_) {
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
                 0, drained_[n], {}, executor_drained_[n]};
      for (uint32_t g = 0; g < node.gpu_count; ++g) {
        v.gpu_jobs.push_back(job_at(GpuId(node.first_gpu + g)));
      }
      v.free_gpus = static_cast<uint32_t>(std::count(v.gpu_jobs.begin(), v.gpu_jobs.end(), 0u));
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
    store_errors_->clear();  // the store counts; a scrape reads its totals
    store_errors_->add({"write"}, static_cast<double>(store_.write_errors()));
    store_errors_->add({"read"}, static_cast<double>(store_.read_errors()));
    for (const QueueSpec& q : config_.queues ? config_.queues->queues : std::vector<QueueSpec>{}) {
      for (const GpuQuota& quota : q.quotas) {
        queue_guarantee_gauge_->add({q.name, quota.gpu_type}, quota.guaranteed);
      }
    }
    const Cluster& c = config_.cluster;
    for (const auto& [key, count] : ended_counts_) {  // ended jobs that left memory
      jobs_gauge_->add({key.first, key.second}, static_cast<double>(count));
    }
    for (const auto& [id, j] : jobs_) {
      jobs_gauge_->add({std::string(to_string(j.state)), j.request.queue});
      for (const JobNode& p : j.state == JobState::kRunning ? j.placement : std::vector<JobNode>{}) {
        const Node& n = c.nodes[static_cast<size_t>(p.node)];
        const std::string type = n.gpu_type ? c.catalog.at(*n.gpu_type).name : "none";
        const double held = j.share_milli > 0 ? j.share_milli / 1000.0 : static_cast<double>(p.gpus.size());
        queue_gpus_gauge_->add({j.request.queue, type}, held);  // a share: its part of the GPU
      }
    }
    executor_waiting_gauge_->clear();
    for (uint32_t id : executor_waiting_) {
      const auto it = jobs_.find(id);
      const std::string& wait = it == jobs_.end() ? std::string() : it->second.executor_wait;
      const auto colon = wait.find(": ");
      if (colon != std::string::npos) {  // "Slurm: Resources"
        executor_waiting_gauge_->add({wait.substr(0, colon), wait.substr(colon + 2)});
      }
    }
    for (size_t n = 0; n < c.nodes.size(); ++n) {
      const Node& node = c.nodes[n];
      const std::string type = node.gpu_type ? c.catalog.at(*node.gpu_type).name : "none";
      for (uint32_t g = 0; g < node.gpu_count; ++g) {
        const uint32_t owner = job_at(GpuId(node.first_gpu + g));
        gpus_gauge_->add({drained_[n] ? "drained" : owner != 0 ? "busy" : "free", type});
      }
    }
    return true;
  });
}

}  // namespace boreas::server
