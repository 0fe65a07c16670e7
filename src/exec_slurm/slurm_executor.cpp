#include "exec_slurm/slurm_executor.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace boreas::exec_slurm {
namespace {

using server::AdoptOutcome;
using server::ExitKind;
using server::JobExit;
using server::LaunchRequest;
using server::ProcessIdentity;

uint32_t minutes_rounded_up(Duration d) {
  const int64_t s = (d.us() + 999'999) / 1'000'000;
  return static_cast<uint32_t>((s + 59) / 60);
}

std::unordered_map<uint64_t, slurm::SlurmJob> by_id(std::vector<slurm::SlurmJob> jobs) {
  std::unordered_map<uint64_t, slurm::SlurmJob> out;
  for (auto& j : jobs) {
    const uint64_t id = j.id;
    out.emplace(id, std::move(j));
  }
  return out;
}

// Slurm's start in Boreas's time: Slurm counts whole seconds, so a job started in the second of its
// launch reads as before it; the launch is then the closer bound.
Time slurm_start(const slurm::SlurmJob& sj, Time launched) {
  return std::max(Time::from_seconds(sj.started_at()), launched);
}

}  // namespace

std::string job_comment(JobId job) {
  return "boreas:" + std::to_string(job.value());
}

Result<slurm::SubmitRequest> SlurmExecutor::submit_request(const LaunchRequest& req) const {
  if (req.placement.empty()) {
    return invalid_argument("job " + std::to_string(req.job.value()) + " has no placement (no node chosen)");
  }
  slurm::SubmitRequest s;
  s.name = "boreas-" + std::to_string(req.job.value());
  s.comment = job_comment(req.job);
  s.argv = req.argv;
  s.env = req.env;
  s.cwd = req.cwd;
  s.nodes = static_cast<uint32_t>(req.placement.size());
  s.gpus_per_node = static_cast<uint32_t>(req.placement.front().gpu_indexes.size());
  for (const auto& p : req.placement) {
    const auto it = options_.nodes.find(p.node);
    if (it == options_.nodes.end()) {
      return invalid_argument("node '" + p.node + "' of job " + std::to_string(req.job.value()) +
                              " is not a Slurm node of this cluster");
    }
    if (p.gpu_indexes.size() != s.gpus_per_node) {
      return unsupported("job " + std::to_string(req.job.value()) +
                         " asks for different GPU counts per node; Slurm gives every node of a job the same");
    }
    s.node_list.push_back(it->second.name);
    s.gpu_type = it->second.gres_type;
  }
  // The job's Unix account (docs/live.md, Security): Slurm runs the job as that uid (`--uid`, which
  // only root may give), and the job's directory becomes the account's, closed to others.
  struct passwd* account = nullptr;
  if (!req.user.empty()) {
    account = getpwnam(req.user.c_str());
    if (account == nullptr) {
      return not_found("job " + std::to_string(req.job.value()) + ": Unix account '" + req.user +
                       "' does not exist on this host; create it or map the token to another account");
    }
    s.uid = account->pw_uid;
  }
  // As at submit (docs/live.md, Security), again here: a job stored before may still be relaunched.
  if (geteuid() == 0 && !options_.allow_root_jobs && (account == nullptr || account->pw_uid == 0)) {
    return invalid_argument("job " + std::to_string(req.job.value()) + " would run as root (" +
                            (req.user.empty() ? "no Unix account" : "account '" + req.user + "'") +
                            ") and the daemon runs as root; create its token with --unix-user, or start "
                            "the daemon with --allow-root-jobs");
  }
  if (!options_.jobs_dir.empty()) {
    const std::string dir = options_.jobs_dir + "/" + std::to_string(req.job.value());
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (account != nullptr && (chown(dir.c_str(), account->pw_uid, account->pw_gid) != 0 ||
                               chmod(dir.c_str(), 0700) != 0)) {
      return io_error("cannot give " + dir + " to account '" + req.user + "': " + std::strerror(errno));
    }
    s.output = dir + "/stdout.log";
    s.cwd = s.cwd.empty() ? dir : s.cwd;
    s.exit_file = exit_file(req.job);
  }
  // sbatch -o/-e as given (relative to --chdir, as Slurm reads them); '%' is Slurm's escape too,
  // so the expanded path is written with each '%' doubled.
  const auto literal = [](const std::string& path) {
    std::string out;
    for (char c : path) {
      out += c == '%' ? std::string("%%") : std::string(1, c);
    }
    return out;
  };
  s.output = req.stdout_path.empty() ? s.output : literal(req.stdout_path);
  s.error = literal(req.stderr_path);
  s.time_limit_min = req.time_limit > Duration::zero() ? minutes_rounded_up(req.time_limit) : 0;
  return s;
}

Result<ProcessIdentity> SlurmExecutor::launch(const LaunchRequest& req) {
  auto s = submit_request(req);
  if (!s.is_ok()) {
    return s.status();
  }
  std::error_code ec;
  std::filesystem::remove(s->exit_file, ec);  // an earlier attempt's (the job ran before a preemption)
  auto id = client_.submit(*s);
  if (!id.is_ok()) {
    return id.status();
  }
  jobs_[req.job] = tracked(*id, 0, req);
  return ProcessIdentity{static_cast<int32_t>(*id), 0};
}

Result<uint64_t> SlurmExecutor::slurm_id(JobId job) const {
  const auto it = jobs_.find(job);
  if (it == jobs_.end()) {
    return not_found("job " + std::to_string(job.value()) + " is not running in Slurm");
  }
  return it->second.slurm_id;
}

Status SlurmExecutor::release(JobId job) {
  auto id = slurm_id(job);
  return id.is_ok() ? client_.release(*id) : id.status();
}

Status SlurmExecutor::abort(JobId job) {
  auto id = slurm_id(job);
  if (!id.is_ok()) {
    return id.status();
  }
  jobs_[job].intent = Intent::kAbort;
  return client_.cancel(*id);
}

Status SlurmExecutor::cancel(JobId job) {
  auto id = slurm_id(job);
  if (!id.is_ok()) {
    return id.status();
  }
  jobs_[job].intent = Intent::kCancel;
  return client_.cancel(*id);  // Slurm sends SIGTERM, waits KillWait, then SIGKILL
}

Status SlurmExecutor::preempt(JobId job) {
  auto id = slurm_id(job);
  if (!id.is_ok()) {
    return id.status();
  }
  Tracked& t = jobs_[job];
  if (t.intent == Intent::kPreempt) {
    return Status::ok();
  }
  t.intent = Intent::kPreempt;
  t.deadline = Time::never();  // set by the next poll: the grace counts from the signal
  return client_.signal(*id, "USR1", true);
}

AdoptOutcome SlurmExecutor::adopt(const LaunchRequest& req, ProcessIdentity id) {
  const uint64_t sid = static_cast<uint64_t>(id.pid);
  auto all = client_.jobs();
  if (!all.is_ok()) {
    jobs_[req.job] = tracked(sid, 0, req);  // Slurm unreachable: poll decides later;
    return {true, std::nullopt};                      // calling it lost could run it twice
  }
  for (const auto& sj : *all) {
    if (sj.id != sid || sj.comment != job_comment(req.job)) {
      continue;
    }
    Tracked t = tracked(sid, sj.restarts, req);
    if (sj.finished()) {
      return {false, classify(req.job, t, sj)};
    }
    if (sj.held() && sj.restarts == 0) {
      (void)client_.cancel(sid);  // recorded but never released: it never ran, safe to run again
      return {false, JobExit{req.job, ExitKind::kNeverRan, -1}};
    }
    jobs_[req.job] = t;
    return {true, std::nullopt};
  }
  return {false, exit_from_file(req.job, tracked(sid, 0, req))};
}

std::string SlurmExecutor::exit_file(JobId job) const {
  return options_.jobs_dir.empty() ? "" : options_.jobs_dir + "/" + std::to_string(job.value()) + "/slurm-exit";
}

// A job slurmctld no longer lists (forgotten after MinJobAge, e.g. while the daemon was down, and
// no slurmdbd to ask): the exit file its batch script wrote when the command returned says how it
// ended, and when (its mtime); without one the job is lost.
JobExit SlurmExecutor::exit_from_file(JobId job, const Tracked& t) const {
  const std::string path = exit_file(job);
  std::ifstream in(path);
  slurm::SlurmJob sj;
  struct stat st {};
  if (path.empty() || !(in >> sj.exit_code) || stat(path.c_str(), &st) != 0) {
    return JobExit{job, ExitKind::kLost, -1};
  }
  sj.state = sj.exit_code == 0 ? "COMPLETED" : "FAILED";
  sj.end_time = st.st_mtim.tv_sec;
  return classify(job, t, sj);
}

// What Boreas asked for decides first (as in the local executor), then Slurm's final state.
JobExit SlurmExecutor::classify(JobId job, const Tracked& t, const slurm::SlurmJob& sj) const {
  JobExit e{job, ExitKind::kLost, sj.exit_code};
  if (sj.started_at() > 0) {
    e.started = slurm_start(sj, t.launched);
  }
  if (sj.end_time > 0) {
    e.ended = Time::from_seconds(sj.end_time);
  }
  if (t.intent == Intent::kTimeLimit) {
    e.kind = ExitKind::kTimedOut;
  } else if (t.intent == Intent::kPreempt || sj.state == "PREEMPTED") {
    e.kind = ExitKind::kPreempted;
  } else if (t.intent == Intent::kAbort || (sj.state == "CANCELLED" && sj.start_time == 0)) {
    e.kind = ExitKind::kNeverRan;
  } else if (t.intent == Intent::kCancel || sj.state == "CANCELLED") {
    e.kind = ExitKind::kCancelled;
  } else if (sj.state == "COMPLETED") {
    e.kind = ExitKind::kCompleted;
  } else if (sj.state == "FAILED" || sj.state == "OUT_OF_MEMORY") {
    e.kind = ExitKind::kFailed;
  } else if (sj.state == "TIMEOUT" || sj.state == "DEADLINE") {
    e.kind = ExitKind::kTimedOut;
  }
  return e;
}

// One tracked job against Slurm's view: its exit when it has one, else escalations.
std::optional<JobExit> SlurmExecutor::check(JobId job, Tracked& t, const slurm::SlurmJob* sj, Time now) {
  if (sj == nullptr) {
    return exit_from_file(job, t);  // gone from slurmctld's memory (MinJobAge) unseen
  }
  if (sj->finished()) {
    return classify(job, t, *sj);
  }
  observe_start(job, t, *sj);
  if (sj->restarts > t.restarts && t.intent == Intent::kNone) {
    // Slurm requeued it (node failure): Boreas places it again, from its last checkpoint.
    (void)client_.cancel(t.slurm_id);
    return JobExit{job, ExitKind::kPreempted, -1};
  }
  if (t.intent == Intent::kNone && now >= t.limit_at) {
    t.intent = Intent::kTimeLimit;
  }
  if (t.intent == Intent::kTimeLimit && !t.stop_sent) {  // a failed scancel is tried again next poll
    t.stop_sent = client_.cancel(t.slurm_id).is_ok();
  }
  if (t.intent == Intent::kPreempt && t.deadline == Time::never()) {
    t.deadline = now + options_.grace;
  }
  if (t.intent == Intent::kPreempt && now >= t.deadline && !t.stop_sent) {
    t.stop_sent = client_.cancel(t.slurm_id).is_ok();
  }
  return std::nullopt;
}

SlurmExecutor::Tracked SlurmExecutor::tracked(uint64_t slurm_id, uint32_t restarts, const LaunchRequest& req) {
  Tracked t;
  t.slurm_id = slurm_id;
  t.restarts = restarts;
  t.launched = req.started;
  t.limit = req.time_limit;
  return t;
}

// The first poll that finds the job running in Slurm reports Slurm's start; its time limit counts
// from then (a job Slurm keeps pending is not timed out before it ran).
void SlurmExecutor::observe_start(JobId job, Tracked& t, const slurm::SlurmJob& sj) {
  if (t.start_seen || sj.started_at() == 0) {
    return;
  }
  t.start_seen = true;
  const Time at = slurm_start(sj, t.launched);
  t.limit_at = t.limit > Duration::zero() ? at + t.limit : Time::never();
  started_.push_back({job, at});
}

void SlurmExecutor::sweep_unrecorded(const std::vector<slurm::SlurmJob>& all) {
  std::unordered_map<uint64_t, bool> tracked;
  for (const auto& [job, t] : jobs_) {
    tracked[t.slurm_id] = true;
  }
  for (const auto& sj : all) {
    if (sj.comment.rfind("boreas:", 0) == 0 && sj.held() && sj.restarts == 0 && !tracked.contains(sj.id)) {
      (void)client_.cancel(sj.id);
    }
  }
}

std::vector<JobExit> SlurmExecutor::poll(Time now) {
  std::vector<JobExit> exits;
  started_.clear();
  if ((jobs_.empty() && swept_) || now < last_poll_ + options_.poll_every) {
    return exits;
  }
  last_poll_ = now;
  auto all = client_.jobs();
  if (!all.is_ok()) {
    return exits;  // Slurm unreachable: try again at the next poll, nothing is concluded
  }
  if (!swept_) {
    sweep_unrecorded(*all);
    swept_ = true;
  }
  const auto seen = by_id(std::move(*all));
  waiting_.clear();
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const auto s = seen.find(it->second.slurm_id);
    const slurm::SlurmJob* sj = s == seen.end() ? nullptr : &s->second;
    auto exit = check(it->first, it->second, sj, now);
    if (exit) {
      exits.push_back(*exit);
      it = jobs_.erase(it);
      continue;
    }
    if (sj->state == "PENDING" && it->second.intent == Intent::kNone) {
      waiting_.push_back({it->first, "Slurm", sj->reason});
    }
    ++it;
  }
  std::sort(waiting_.begin(), waiting_.end(), [](const auto& a, const auto& b) { return a.job < b.job; });
  return exits;
}

}  // namespace boreas::exec_slurm
