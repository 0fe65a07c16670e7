// The controller's job commands: submit, cancel, checkpoint, drain, and applying exits.

#include <algorithm>

#include "server/driver/controller.h"
#include "server/jobs/gang_shape.h"
#include "server/jobs/job_json.h"
#include "server/jobs/job_records.h"
#include "server/jobs/node_resources.h"
#include "server/store/node_rows.h"

namespace boreas::server {
namespace {

std::string job_target(JobId id) { return "job/" + std::to_string(id.value()); }

// Without --queues the daemon has one queue, `default`: another name is a typo or a missing
// --queues, never a new queue; and there are no priority classes to name.
Status without_queue_tree(const SubmitRequest& req) {
  if (req.queue != "default") {
    return invalid_argument("$.queue: unknown queue `" + req.queue + "`: this daemon runs without --queues, "
                            "so its only queue is `default`; leave the queue out, or start `boreas serve "
                            "--queues FILE` with the queue in FILE (docs/formats/queues.md)");
  }
  if (!req.priority_class.empty()) {
    return invalid_argument("$.priority_class: unknown priority class `" + req.priority_class +
                            "`: this daemon runs without --queues, so it has none; leave it out, or define "
                            "it under priority_classes in a --queues file");
  }
  return Status::ok();
}

std::string queue_names(const QueueTree& tree) {
  std::string all;
  for (const auto& q : tree.queues) {
    all += (all.empty() ? "" : ", ") + q.name;
  }
  return all;
}

}  // namespace

Status Controller::validate(const SubmitRequest& req, int32_t& priority) const {
  const Cluster& c = config_.cluster;
  if (!req.gpu_type.empty() && !c.catalog.find(req.gpu_type)) {
    return invalid_argument("$.gpu_type: unknown GPU type `" + req.gpu_type + "`; known: " +
                            [&] {
                              std::string all;
                              for (const auto& n : c.catalog.names()) {
                                all += (all.empty() ? "" : ", ") + n;
                              }
                              return all;
                            }());
  }
  BOREAS_RETURN_IF_ERROR(check_gang_shape(c, req.gpus, req.gpu_type, executor_.spans_nodes()));
  BOREAS_RETURN_IF_ERROR(check_resources_fit(req, c));
  BOREAS_RETURN_IF_ERROR(validate_share(req));
  BOREAS_RETURN_IF_ERROR(check_dependency_jobs(req));
  priority = 0;
  if (!config_.queues) {
    return without_queue_tree(req);
  }
  if (!config_.queues->find(req.queue)) {
    return invalid_argument("$.queue: unknown queue `" + req.queue + "`; the --queues file names " +
                            queue_names(*config_.queues));
  }
  if (req.priority_class.empty()) {
    return Status::ok();
  }
  for (const PriorityClass& pc : config_.queues->priority_classes) {
    if (pc.name == req.priority_class) {
      priority = pc.value;
      return Status::ok();
    }
  }
  return invalid_argument("$.priority_class: unknown priority class `" + req.priority_class + "`");
}

Pending<Submitted> Controller::do_submit(const Caller& who, SubmitRequest req, const std::string& key) {
  if (const auto it = idempotent_.find({who.name, key}); !key.empty() && it != idempotent_.end()) {
    return replay(it->second, req);
  }
  if (!key.empty()) {  // an ended job's key is in the store only
    auto first = load_job_by_key(store_, who.name, key);
    if (!first.is_ok()) {
      return {first.status(), std::nullopt};
    }
    if (*first) {
      return submit_to_json((*first)->request) == submit_to_json(req)
                 ? Pending<Submitted>{Submitted{**first, true}, std::nullopt}
                 : Pending<Submitted>{conflict("Idempotency-Key already used for job " +
                                               std::to_string((*first)->id.value()) +
                                               " with a different request; use a new key for a new job"),
                                      std::nullopt};
    }
  }
  int32_t priority = 0;
  Status s = validate(req, priority);
  if (!s.is_ok()) {
    return {s, std::nullopt};
  }
  LiveJob job;
  job.id = JobId(++last_id_);
  job.owner = who.name;
  job.request = std::move(req);
  job.priority = priority;
  job.submit = config_.clock();
  job.reason = "waiting for a scheduling round";
  job.idempotency_key = key;
  uncommitted_.emplace(job.id.value(), job);
  if (!key.empty()) {
    idempotent_[{who.name, key}] = job.id;
  }
  auto durable = store_.write(
      {{insert_job_row(job), audit_row(job.submit, who.name, "submit", job_target(job.id), "ok", who.peer)}});
  return {Submitted{job, false}, std::move(durable)};
}

// The same key again: the first job, unless that submit is still being stored or asked for
// something else (a key names one request, not a slot to reuse).
Pending<Submitted> Controller::replay(JobId id, const SubmitRequest& req) {
  if (uncommitted_.count(id.value()) > 0) {
    return {conflict("a submit with this Idempotency-Key is still being stored; retry in a moment"),
            std::nullopt};
  }
  const LiveJob* found = find(id);
  if (found == nullptr) {  // ended and forgotten between the lookups: cannot happen on one thread
    return {internal_error("job " + std::to_string(id.value()) + " left memory with its key"), std::nullopt};
  }
  const LiveJob& first = *found;
  if (submit_to_json(first.request) != submit_to_json(req)) {
    return {conflict("Idempotency-Key already used for job " + std::to_string(id.value()) +
                     " with a different request; use a new key for a new job"),
            std::nullopt};
  }
  return {Submitted{first, true}, std::nullopt};
}

void Controller::settle_submit(JobId id, bool committed) {
  const auto it = uncommitted_.find(id.value());
  if (it == uncommitted_.end()) {
    return;
  }
  if (committed) {
    LiveJob& j = jobs_.emplace(id.value(), std::move(it->second)).first->second;
    with_dependency_ += j.request.dependency.empty() ? 0 : 1;
    enter_state(j);
    dirty_ = true;
    note("job.submitted", {{"job", id.value()}, {"owner", j.owner}, {"queue", j.request.queue},
                           {"gpus", j.request.gpus}});
  } else if (!it->second.idempotency_key.empty()) {
    idempotent_.erase({it->second.owner, it->second.idempotency_key});  // a retry may try again
  }
  uncommitted_.erase(it);
}

// What to say about a job not in memory: it ended (the store has it) or does not exist.
Status Controller::ended_or_missing(JobId id, const std::string& wanted) {
  auto stored = load_job(store_, id);
  if (!stored.is_ok()) {
    return stored.status();
  }
  if (!*stored) {
    return not_found("job " + std::to_string(id.value()) + " does not exist");
  }
  return conflict("job " + std::to_string(id.value()) + " already " + std::string(to_string((*stored)->state)) +
                  wanted);
}

Pending<LiveJob> Controller::do_cancel(const Caller& who, JobId id) {
  LiveJob* j = find(id);
  if (j == nullptr) {
    return {ended_or_missing(id, ""), std::nullopt};
  }
  if (is_terminal(j->state)) {
    return {conflict("job " + std::to_string(id.value()) + " already " +
                     std::string(to_string(j->state))),
            std::nullopt};
  }
  const Time now = config_.clock();
  if (j->state == JobState::kRunning) {
    (void)executor_.cancel(id);
    set_stopping(*j);
    j->reason = "cancelling: SIGTERM sent, SIGKILL after the grace period";
  } else {
    j->state = JobState::kCancelled;
    j->end = now;
    j->reason = "cancelled by " + who.name;
    state_cancelled(*j);
    dirty_ = true;
  }
  note("job.cancel", {{"job", id.value()}, {"by", who.name}, {"state", to_string(j->state)}});
  auto durable = store_.write(
      {{update_job_row(*j, now), audit_row(now, who.name, "cancel", job_target(id), "ok", who.peer)}});
  if (!is_terminal(j->state)) {
    return {*j, std::move(durable)};
  }
  // The answer waits for this write; memory lets go once a second one, queued behind it, is durable.
  const LiveJob answer = *j;
  retire(*j, write_async({update_job_row(*j, now)}));
  return {answer, std::move(durable)};
}

Pending<LiveJob> Controller::do_checkpoint(const Caller& who, JobId id) {
  LiveJob* j = find(id);
  if (j == nullptr) {
    return {ended_or_missing(id, "; only running jobs can checkpoint"), std::nullopt};
  }
  if (j->state != JobState::kRunning) {
    return {conflict("job " + std::to_string(id.value()) + " is " +
                     std::string(to_string(j->state)) + "; only running jobs can checkpoint"),
            std::nullopt};
  }
  if (!j->stopping) {  // a job already stopping keeps its deadline and its reason
    (void)executor_.preempt(id);
    set_stopping(*j);
    j->reason = "checkpoint requested: SIGUSR1 sent; it goes back to the queue when it stops";
  }
  const Time now = config_.clock();
  auto durable = store_.write({{audit_row(now, who.name, "checkpoint", job_target(id), "ok", who.peer)}});
  return {*j, std::move(durable)};
}

Pending<bool> Controller::do_drain(const Caller& who, const std::string& node, bool drained, DrainOrigin origin) {
  const auto& nodes = config_.cluster.nodes;
  const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.name == node; });
  if (it == nodes.end()) {
    return {not_found("node `" + node + "` does not exist"), std::nullopt};
  }
  const auto n = static_cast<size_t>(it - nodes.begin());
  drained_[n] = drained;
  executor_drained_[n] = drained && origin == DrainOrigin::kExecutor;
  state_drained(n, drained);
  dirty_ = true;
  const Time now = config_.clock();
  auto durable = store_.write(
      {{node_drain_row(node, drained, executor_drained_[n] ? "executor" : "operator"),
        audit_row(now, who.name, drained ? "drain" : "resume", "node/" + node, "ok", who.peer)}});
  return {true, std::move(durable)};
}

// Released jobs the executor's own scheduler keeps waiting (Slurm: PENDING, with its reason) say so
// in their reason, `why` and the boreas_executor_waiting_jobs gauge, until they run. O(waiting jobs).
void Controller::apply_waits() {
  std::map<uint32_t, const JobWait*> now;
  const std::vector<JobWait> waits = executor_.waiting();
  for (const JobWait& w : waits) {
    now[w.job.value()] = &w;
  }
  for (uint32_t id : executor_waiting_) {
    LiveJob* j = find(JobId(id));
    if (now.count(id) == 0 && j != nullptr && j->state == JobState::kRunning) {
      j->executor_wait.clear();
      j->reason = "running";
      note("job.executor_running", {{"job", id}});
    }
  }
  executor_waiting_.clear();
  for (const auto& [id, w] : now) {
    LiveJob* j = find(JobId(id));
    if (j == nullptr || j->state != JobState::kRunning) {
      continue;
    }
    executor_waiting_.insert(id);
    const std::string wait = w->by + ": " + w->reason;
    if (j->executor_wait != wait) {
      j->executor_wait = wait;
      j->reason = "started by Boreas; " + w->by + " keeps it pending: " + w->reason;
      note("job.executor_wait", {{"job", id}, {"executor", w->by}, {"reason", w->reason}});
    }
  }
}

// Starts the executor's own scheduler reports (Slurm's start_time) replace the launch time as the
// job's start, and are stored, so `boreas jobs`, the API and a restarted daemon show when it ran.
void Controller::apply_starts() {
  for (const JobStart& s : executor_.started()) {
    LiveJob* j = find(s.job);
    if (j != nullptr && j->state == JobState::kRunning && take_executor_start(*j, s.at)) {
      (void)write_async({update_job_row(*j, config_.clock())});
    }
  }
}

// Never earlier than the launch: the GPUs were the job's from then, and its start can only move later.
bool Controller::take_executor_start(LiveJob& job, Time at) {
  if (at <= job.start) {
    return false;
  }
  note("job.executor_started", {{"job", job.id.value()}, {"start_us", at.us()}, {"after_launch_us", (at - job.start).us()}});
  job.start = at;
  return true;
}

// The job's restart policy decides: back to the queue (keeping its submit time, so its place in
// line) while restarts are left, else failed.
void Controller::fail_or_restart(LiveJob& job, const std::string& what) {
  const RestartPolicy& r = job.request.restart;
  if (r.on_failure && job.restarts < r.max_restarts) {
    job.restarts += 1;
    job.state = JobState::kPending;
    job.reason = what + "; restart " + std::to_string(job.restarts) + " of " +
                 std::to_string(r.max_restarts) + " (restart " + restart_to_string(r) + ")";
    return;
  }
  job.state = JobState::kFailed;
  job.reason = what + (r.on_failure ? "; no restarts left (restart " + restart_to_string(r) + ")"
                                    : "; not restarted (restart never)");
}

void Controller::apply_exit(const JobExit& e) {
  LiveJob* j = find(e.job);
  if (j == nullptr) {
    return;
  }
  const Time now = config_.clock();
  if (e.started && j->state == JobState::kRunning) {
    take_executor_start(*j, *e.started);
  }
  // The executor's end (Slurm's end_time), else when the daemon sees the exit.
  const Time end = e.ended ? std::max(std::min(*e.ended, now), j->start) : now;
  if (j->state == JobState::kRunning && e.kind != ExitKind::kNeverRan) {
    j->ran += end - j->start;
  }
  j->exit_code = e.exit_code;
  j->process = {};
  j->stopping = false;
  j->reason_kind.clear();
  j->executor_wait.clear();
  dirty_ = true;
  switch (e.kind) {
    case ExitKind::kCompleted: j->state = JobState::kCompleted; j->reason = "exit 0"; break;
    case ExitKind::kFailed: fail_or_restart(*j, "exit " + std::to_string(e.exit_code)); break;
    case ExitKind::kCancelled: j->state = JobState::kCancelled; j->reason = "cancelled"; break;
    case ExitKind::kTimedOut: j->state = JobState::kFailed; j->reason = "time limit reached"; break;
    case ExitKind::kPreempted:
      j->state = JobState::kPending;
      j->reason = "preempted after a checkpoint; waiting to resume";
      break;
    case ExitKind::kNeverRan:
      j->state = JobState::kPending;
      j->reason = "its launch was aborted before the command ran; requeued";
      break;
    case ExitKind::kLost:
      fail_or_restart(*j, "its process was lost without an exit status (killed while the daemon was down?)");
      break;
  }
  if (is_terminal(j->state)) {
    j->end = end;  // the allocation stays on record: where it ran
  } else {
    j->placement.clear();
  }
  note("job.exited", {{"job", j->id.value()}, {"state", to_string(j->state)}, {"exit_code", e.exit_code},
                      {"reason", j->reason}});
  state_left_running(*j);
  auto written = write_async({update_job_row(*j, now)});
  if (is_terminal(j->state)) {
    retire(*j, std::move(written));
  }
}

}  // namespace boreas::server
