#include "server/local_executor.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "server/process.h"

namespace boreas::server {
namespace {

std::string join_indexes(const std::vector<uint32_t>& v) {
  std::string out;
  for (uint32_t i : v) {
    out += (out.empty() ? "" : ",") + std::to_string(i);
  }
  return out;
}

int32_t exit_code_of(int32_t wait_status) {
  if (WIFEXITED(wait_status)) {
    return WEXITSTATUS(wait_status);
  }
  if (WIFSIGNALED(wait_status)) {
    return 128 + WTERMSIG(wait_status);
  }
  return -1;
}

}  // namespace

std::string_view to_string(ExitKind kind) {
  switch (kind) {
    case ExitKind::kCompleted: return "completed";
    case ExitKind::kFailed: return "failed";
    case ExitKind::kCancelled: return "cancelled";
    case ExitKind::kTimedOut: return "timed-out";
    case ExitKind::kPreempted: return "preempted";
    case ExitKind::kNeverRan: return "never-ran";
    case ExitKind::kLost: return "lost";
  }
  return "unknown";
}

LocalExecutor::LocalExecutor(LocalExecutorOptions options) : options_(std::move(options)) {}

LocalExecutor::~LocalExecutor() {
  for (auto& [job, p] : procs_) {
    if (p.go_fd >= 0) {
      close(p.go_fd);  // held jobs exit unrun; running ones outlive the daemon by design
    }
  }
}

std::string LocalExecutor::job_dir(JobId job) const {
  return options_.jobs_dir + "/" + std::to_string(job.value());
}

std::string LocalExecutor::exit_path(JobId job) const { return job_dir(job) + "/exit"; }

Result<ProcessIdentity> LocalExecutor::launch(const LaunchRequest& req) {
  if (procs_.contains(req.job)) {
    return conflict("job " + std::to_string(req.job.value()) + " is already running");
  }
  std::error_code ec;
  std::filesystem::create_directories(job_dir(req.job), ec);
  std::filesystem::remove(exit_path(req.job), ec);  // from an earlier attempt
  SpawnSpec spec{req.argv, options_.base_env, req.cwd.empty() ? job_dir(req.job) : req.cwd,
                 job_dir(req.job) + "/stdout.log", job_dir(req.job) + "/stderr.log",
                 exit_path(req.job)};
  spec.env.insert(spec.env.end(), req.env.begin(), req.env.end());
  spec.env.push_back("CUDA_VISIBLE_DEVICES=" + join_indexes(req.gpu_indexes));
  spec.env.push_back("BOREAS_JOB_ID=" + std::to_string(req.job.value()));
  auto spawned = spawn_supervised(spec);
  if (!spawned.is_ok()) {
    return spawned.status();
  }
  const auto stat = read_proc_stat(spawned->pid);
  Proc p;
  p.id = {spawned->pid, stat ? stat->start_ticks : 0};
  p.go_fd = spawned->go_fd;
  p.started = req.started;
  p.time_limit = req.time_limit;
  procs_[req.job] = p;
  return p.id;
}

Status LocalExecutor::release(JobId job) {
  auto it = procs_.find(job);
  if (it == procs_.end() || it->second.go_fd < 0) {
    return not_found("job " + std::to_string(job.value()) + " is not held by the executor");
  }
  const char go = 'g';
  const bool sent = write(it->second.go_fd, &go, 1) == 1;
  close(it->second.go_fd);
  it->second.go_fd = -1;
  return sent ? Status::ok() : io_error("cannot release job " + std::to_string(job.value()));
}

Status LocalExecutor::abort(JobId job) {
  auto it = procs_.find(job);
  if (it == procs_.end() || it->second.go_fd < 0) {
    return not_found("job " + std::to_string(job.value()) + " is not held by the executor");
  }
  close(it->second.go_fd);  // the supervisor reads EOF and exits without running anything
  int status = 0;
  waitpid(it->second.id.pid, &status, 0);
  procs_.erase(it);
  return Status::ok();
}

AdoptOutcome LocalExecutor::adopt(const LaunchRequest& req, ProcessIdentity id) {
  const auto stat = read_proc_stat(id.pid);
  const bool same = stat && stat->state != 'Z' && stat->start_ticks == id.start_ticks;
  if (same) {
    Proc p;
    p.id = id;
    p.child = false;
    p.started = req.started;
    p.time_limit = req.time_limit;
    procs_[req.job] = p;
    return {true, std::nullopt};
  }
  const auto status = read_exit_status(exit_path(req.job));
  if (!status) {
    return {false, std::nullopt};
  }
  return {false, classify(req.job, Proc{}, status)};
}

void LocalExecutor::signal_group(const Proc& p, int sig) const {
  kill(-p.id.pid, sig);
}

Status LocalExecutor::ask(JobId job, Intent intent, Phase phase) {
  auto it = procs_.find(job);
  if (it == procs_.end()) {
    return not_found("job " + std::to_string(job.value()) + " has no process to signal");
  }
  Proc& p = it->second;
  // Asking again must not re-arm the deadline, or repeated asks would postpone SIGTERM forever.
  if (p.intent == intent || p.intent == Intent::kCancel || p.intent == Intent::kTimeLimit) {
    return Status::ok();
  }
  p.intent = intent;
  p.phase = phase;
  p.signal_sent = false;
  p.deadline = Time::zero();  // the next poll sends the signal
  return Status::ok();
}

Status LocalExecutor::cancel(JobId job) { return ask(job, Intent::kCancel, Phase::kTerminated); }

Status LocalExecutor::preempt(JobId job) { return ask(job, Intent::kPreempt, Phase::kAsked); }

void LocalExecutor::escalate(Proc& p, Time now) {
  if (p.phase == Phase::kRunning && !p.time_limit.is_infinite() && p.time_limit > Duration::zero() &&
      now - p.started >= p.time_limit) {
    p.intent = Intent::kTimeLimit;
    p.phase = Phase::kTerminated;
    p.signal_sent = false;
    p.deadline = Time::zero();
  }
  if (p.phase == Phase::kRunning || now < p.deadline) {
    return;
  }
  if (p.signal_sent) {  // grace is over: next step
    p.phase = p.phase == Phase::kAsked ? Phase::kTerminated : Phase::kKilled;
  }
  const int sig = p.phase == Phase::kAsked ? SIGUSR1 : p.phase == Phase::kTerminated ? SIGTERM : SIGKILL;
  signal_group(p, sig);
  p.signal_sent = true;
  p.deadline = p.phase == Phase::kKilled ? Time::never() : now + options_.grace;
}

JobExit LocalExecutor::classify(JobId job, const Proc& p, std::optional<int32_t> status) const {
  if (status == kNeverRanStatus) {
    return {job, ExitKind::kNeverRan, -1};
  }
  JobExit e{job, ExitKind::kLost, status ? exit_code_of(*status) : -1};
  switch (p.intent) {
    case Intent::kCancel: e.kind = ExitKind::kCancelled; break;
    case Intent::kPreempt: e.kind = ExitKind::kPreempted; break;
    case Intent::kTimeLimit: e.kind = ExitKind::kTimedOut; break;
    case Intent::kNone:
      if (status) {
        e.kind = e.exit_code == 0 ? ExitKind::kCompleted : ExitKind::kFailed;
      }
      break;
  }
  return e;
}

std::optional<JobExit> LocalExecutor::check_exit(JobId job, const Proc& p) {
  if (p.child) {
    int wstatus = 0;
    if (waitpid(p.id.pid, &wstatus, WNOHANG) != p.id.pid) {
      return std::nullopt;
    }
  } else {
    const auto stat = read_proc_stat(p.id.pid);
    if (stat && stat->state != 'Z' && stat->start_ticks == p.id.start_ticks) {
      return std::nullopt;
    }
  }
  return classify(job, p, read_exit_status(exit_path(job)));
}

std::vector<JobExit> LocalExecutor::poll(Time now) {
  std::vector<JobExit> exits;
  for (auto it = procs_.begin(); it != procs_.end();) {
    Proc& p = it->second;
    if (p.go_fd >= 0) {  // held: not started yet
      ++it;
      continue;
    }
    if (auto e = check_exit(it->first, p)) {
      exits.push_back(*e);
      it = procs_.erase(it);
      continue;
    }
    escalate(p, now);
    ++it;
  }
  return exits;
}

}  // namespace boreas::server
