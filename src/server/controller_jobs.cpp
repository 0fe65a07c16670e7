// The controller's job commands: submit, cancel, checkpoint, drain, and applying exits.

#include <algorithm>

#include "server/controller.h"
#include "server/job_json.h"
#include "server/job_records.h"

namespace boreas::server {
namespace {

std::string job_target(JobId id) { return "job/" + std::to_string(id.value()); }

uint32_t largest_node(const Cluster& c, const std::string& type) {
  uint32_t best = 0;
  for (const Node& n : c.nodes) {
    const bool match = type.empty() || (n.gpu_type && c.catalog.find(type) == n.gpu_type);
    best = match ? std::max(best, n.gpu_count) : best;
  }
  return best;
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
  if (req.gpus > largest_node(c, req.gpu_type)) {
    return invalid_argument("$.gpus: " + std::to_string(req.gpus) + " GPUs" +
                            (req.gpu_type.empty() ? "" : " of type " + req.gpu_type) +
                            " can never fit: the largest such node has " +
                            std::to_string(largest_node(c, req.gpu_type)));
  }
  priority = 0;
  if (!config_.queues) {
    return Status::ok();
  }
  if (!config_.queues->find(req.queue)) {
    return invalid_argument("$.queue: unknown queue `" + req.queue + "`");
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

Pending<LiveJob> Controller::do_submit(const std::string& who, SubmitRequest req) {
  int32_t priority = 0;
  Status s = validate(req, priority);
  if (!s.is_ok()) {
    return {s, std::nullopt};
  }
  LiveJob job;
  job.id = JobId(static_cast<uint32_t>(jobs_.size() + 1));
  job.owner = who;
  job.request = std::move(req);
  job.priority = priority;
  job.submit = config_.clock();
  job.reason = "waiting for a scheduling round";
  jobs_.push_back(job);
  specs_.push_back(spec_of(job));
  dirty_ = true;
  auto durable = store_.write(
      {{insert_job_row(job), audit_row(job.submit, who, "submit", job_target(job.id), "ok")}});
  return {job, std::move(durable)};
}

Pending<LiveJob> Controller::do_cancel(const std::string& who, JobId id) {
  LiveJob* j = find(id);
  if (j == nullptr) {
    return {not_found("job " + std::to_string(id.value()) + " does not exist"), std::nullopt};
  }
  if (is_terminal(j->state)) {
    return {conflict("job " + std::to_string(id.value()) + " already " +
                     std::string(to_string(j->state))),
            std::nullopt};
  }
  const Time now = config_.clock();
  if (j->state == JobState::kRunning) {
    (void)executor_.cancel(id);
    j->stopping = true;
    j->reason = "cancelling: SIGTERM sent, SIGKILL after the grace period";
  } else {
    j->state = JobState::kCancelled;
    j->end = now;
    j->reason = "cancelled by " + who;
  }
  auto durable = store_.write(
      {{update_job_row(*j, now), audit_row(now, who, "cancel", job_target(id), "ok")}});
  return {*j, std::move(durable)};
}

Pending<LiveJob> Controller::do_checkpoint(const std::string& who, JobId id) {
  LiveJob* j = find(id);
  if (j == nullptr) {
    return {not_found("job " + std::to_string(id.value()) + " does not exist"), std::nullopt};
  }
  if (j->state != JobState::kRunning) {
    return {conflict("job " + std::to_string(id.value()) + " is " +
                     std::string(to_string(j->state)) + "; only running jobs can checkpoint"),
            std::nullopt};
  }
  if (!j->stopping) {  // a job already stopping keeps its deadline and its reason
    (void)executor_.preempt(id);
    j->stopping = true;
    j->reason = "checkpoint requested: SIGUSR1 sent; it goes back to the queue when it stops";
  }
  const Time now = config_.clock();
  auto durable = store_.write({{audit_row(now, who, "checkpoint", job_target(id), "ok")}});
  return {*j, std::move(durable)};
}

Pending<bool> Controller::do_drain(const std::string& who, const std::string& node, bool drained) {
  const auto& nodes = config_.cluster.nodes;
  const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.name == node; });
  if (it == nodes.end()) {
    return {not_found("node `" + node + "` does not exist"), std::nullopt};
  }
  drained_[static_cast<size_t>(it - nodes.begin())] = drained;
  dirty_ = true;
  const Time now = config_.clock();
  auto durable = store_.write(
      {{{"INSERT INTO node_state(name, drained) VALUES (?1, ?2) "
         "ON CONFLICT(name) DO UPDATE SET drained = ?2",
         {node, int64_t{drained ? 1 : 0}}},
        audit_row(now, who, drained ? "drain" : "resume", "node/" + node, "ok")}});
  return {true, std::move(durable)};
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
  hold_gpus(*j, false);
  const Time now = config_.clock();
  if (j->state == JobState::kRunning && e.kind != ExitKind::kNeverRan) {
    j->ran += now - j->start;  // ends when the daemon sees the exit
  }
  j->exit_code = e.exit_code;
  j->process = {};
  j->stopping = false;
  j->reason_kind.clear();
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
    j->end = now;  // the allocation stays on record: where it ran
  } else {
    j->node = -1;
    j->gpu_indexes.clear();
  }
  write_async({update_job_row(*j, now)});
}

}  // namespace boreas::server
