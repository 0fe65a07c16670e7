#include "server/exec/local_executor.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>

#include "server/exec/cgroup.h"
#include "server/exec/process.h"
#include "server/exec/replica_env.h"

namespace boreas::server {
namespace {

std::string join_indexes(const std::vector<uint32_t>& v) {
  std::string out;
  for (uint32_t i : v) {
    out += (out.empty() ? "" : ",") + std::to_string(i);
  }
  return out;
}

std::string job_name(JobId job) { return "job " + std::to_string(job.value()); }

// NAME=value entries, each name once, later layers winning: the daemon's variables, the
// account's HOME/USER/LOGNAME, the job's own (reserved names dropped), then the executor's.
std::vector<std::string> job_env(const std::vector<std::string>& base, const RunAs& as,
                                 const LaunchRequest& req) {
  std::map<std::string, std::string> env;
  auto put = [&env](const std::string& entry, bool allow_reserved) {
    const auto eq = entry.find('=');
    const std::string name = entry.substr(0, eq);
    if (eq != std::string::npos && (allow_reserved || !is_reserved_env(name))) {
      env[name] = entry.substr(eq + 1);
    }
  };
  for (const auto& e : base) {
    put(e, false);
  }
  if (as.switch_user) {
    put("HOME=" + as.home, false);
    put("USER=" + as.name, false);
    put("LOGNAME=" + as.name, false);
  }
  for (const auto& e : req.env) {
    put(e, is_replica_env(e.substr(0, e.find('='))));  // a service's replica: the daemon set them
  }
  put("CUDA_VISIBLE_DEVICES=" + join_indexes(req.gpu_indexes), true);
  put("BOREAS_JOB_ID=" + std::to_string(req.job.value()), true);
  for (const std::string& e : share_env(req)) {
    put(e, true);
  }
  std::vector<std::string> out;
  for (const auto& [k, v] : env) {
    out.push_back(k + "=" + v);
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

bool is_reserved_env(std::string_view name) {
  for (std::string_view r : {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                             "HIP_VISIBLE_DEVICES", "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE",
                             "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"}) {
    if (name == r) {
      return true;
    }
  }
  // A job array's task index is the submitter's to set (`boreas submit --array`): it names no GPU
  // and no identity.
  return name.rfind("BOREAS_", 0) == 0 && name != "BOREAS_ARRAY_TASK_ID";
}

std::vector<std::string> share_env(const LaunchRequest& req) {
  if (req.gpu_share_milli == 0) {
    return {};
  }
  constexpr uint64_t kMib = uint64_t{1} << 20;
  constexpr uint64_t kGib = uint64_t{1} << 30;
  const uint32_t percent = std::max<uint32_t>(1, req.gpu_share_milli / 10);
  const uint64_t b = req.gpu_share_bytes;
  const std::string limit = b % kGib == 0 ? std::to_string(b / kGib) + "G" : std::to_string(b / kMib) + "M";
  return {"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=" + std::to_string(percent), "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=" + limit,
          "BOREAS_GPU_MEMORY_BYTES=" + std::to_string(b)};
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

std::string LocalExecutor::cgroup_of(JobId job) const {
  return options_.cgroup_root.empty() ? std::string() : job_cgroup_path(options_.cgroup_root, job);
}

// As root, a job runs as its token's account (never uid 0 unless allowed); otherwise as the
// daemon's own account, the only one it can run anything as.
Result<RunAs> LocalExecutor::account_for(const LaunchRequest& req) const {
  if (geteuid() != 0) {
    return RunAs{};
  }
  if (req.user.empty()) {
    if (!options_.allow_root_jobs) {
      return invalid_argument(job_name(req.job) + " has no Unix account and the daemon runs as root; "
                               "create its token with --unix-user, or start the daemon with --allow-root-jobs");
    }
    return RunAs{};
  }
  auto as = lookup_account(req.user);
  if (as.is_ok() && as->uid == 0 && !options_.allow_root_jobs) {
    return invalid_argument(job_name(req.job) + " would run as uid 0 (`" + req.user +
                             "`); start the daemon with --allow-root-jobs to allow it");
  }
  return as;
}

// The job's directory belongs to its account and is closed to everyone else.
Status LocalExecutor::prepare_job_dir(JobId job, const RunAs& as) const {
  const std::string dir = job_dir(job);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::filesystem::remove(exit_path(job), ec);  // from an earlier attempt
  const bool owned = !as.switch_user || chown(dir.c_str(), as.uid, as.gid) == 0;
  if (!owned || chmod(dir.c_str(), 0700) != 0) {
    return io_error("cannot give " + dir + " to the job's account: " + std::string(strerror(errno)));
  }
  return Status::ok();
}

Result<ProcessIdentity> LocalExecutor::launch(const LaunchRequest& req) {
  if (procs_.contains(req.job)) {
    return conflict(job_name(req.job) + " is already running");
  }
  auto as = account_for(req);
  if (!as.is_ok()) {
    return as.status();
  }
  BOREAS_RETURN_IF_ERROR(prepare_job_dir(req.job, *as));
  return start_held(req, *as);
}

Result<ProcessIdentity> LocalExecutor::start_held(const LaunchRequest& req, const RunAs& as) {
  SpawnSpec spec{req.argv,
                 job_env(options_.base_env, as, req),
                 req.cwd.empty() ? job_dir(req.job) : req.cwd,
                 job_dir(req.job) + "/stdout.log",
                 job_dir(req.job) + "/stderr.log",
                 req.stdout_path,
                 req.stderr_path,
                 exit_path(req.job),
                 as};
  auto spawned = spawn_supervised(spec);
  if (!spawned.is_ok()) {
    return spawned.status();
  }
  if (!options_.cgroup_root.empty()) {
    if (Status s = enter_cgroup(cgroup_of(req.job), spawned->pid, {req.cpu_milli, req.memory_mib}); !s.is_ok()) {
      close(spawned->go_fd);  // held: it exits without running anything
      waitpid(spawned->pid, nullptr, 0);
      return s;
    }
  }
  const auto stat = read_proc_stat(spawned->pid);
  Proc p;
  p.id = {spawned->pid, stat ? stat->start_ticks : 0};
  p.go_fd = spawned->go_fd;
  p.started = req.started;
  p.time_limit = req.time_limit;
  p.job = req.job;
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
    p.job = req.job;
    procs_[req.job] = p;
    return {true, std::nullopt};
  }
  const auto status = read_exit_status(exit_path(req.job));
  if (!status) {
    return {false, std::nullopt};
  }
  return {false, classify(req.job, Proc{}, status)};
}

// Every process of the job but its supervisor, which stays to record how the command ended:
// the cgroup's members when there is one, else the session, the group and every descendant.
// Returns how many processes it signalled (SIGKILL of a cgroup counts as one).
int LocalExecutor::signal_group(const Proc& p, int sig) const {
  const std::string cgroup = cgroup_of(p.job);
  if (!cgroup.empty() && sig == SIGKILL) {
    kill_cgroup(cgroup);
    return 1;
  }
  const std::vector<int32_t> pids = cgroup.empty() ? job_processes(p.id.pid) : cgroup_pids(cgroup);
  int signalled = 0;
  for (int32_t pid : pids) {
    if (pid != p.id.pid && kill(pid, sig) == 0) {
      ++signalled;
    }
  }
  return signalled;
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
  if (signal_group(p, sig) == 0 && sig != SIGKILL) {
    p.signal_sent = false;  // the command is not forked yet (or already gone): this phase again
    return;                 // at the next poll, its grace not begun
  }
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
      if (const std::string cgroup = cgroup_of(it->first); !cgroup.empty()) {
        kill_cgroup(cgroup);  // nothing of the job outlives it
        remove_cgroup(cgroup);
      }
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
