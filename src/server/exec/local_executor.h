#pragma once
// Runs jobs as processes on this machine: one session per job under a supervisor that records
// the exit status, as the job's Unix account when the daemon is root, GPUs by
// CUDA_VISIBLE_DEVICES, logs in <jobs_dir>/<id>/ (owned by the job's account, mode 0700), and in
// its own cgroup when a cgroup v2 root is given.

#include <unordered_map>

#include "server/exec/executor.h"
#include "server/exec/process.h"

namespace boreas::server {

struct LocalExecutorOptions {
  std::string jobs_dir;                        // per-job folders: stdout.log, stderr.log, exit
  Duration grace = Duration::seconds(10);      // between a polite signal and the next step
  std::vector<std::string> base_env;           // e.g. PATH and HOME of the daemon
  bool allow_root_jobs = false;                // as root: may a job run as uid 0?
  std::string cgroup_root = {};                // cgroup v2 directory for per-job cgroups; empty = none
};

class LocalExecutor final : public Executor {
 public:
  explicit LocalExecutor(LocalExecutorOptions options);
  ~LocalExecutor() override;

  Result<ProcessIdentity> launch(const LaunchRequest& req) override;
  Status release(JobId job) override;
  Status abort(JobId job) override;
  AdoptOutcome adopt(const LaunchRequest& req, ProcessIdentity id) override;
  Status cancel(JobId job) override;
  Status preempt(JobId job) override;
  std::vector<JobExit> poll(Time now) override;
  bool shares_gpus() const override { return true; }
  size_t running() const override { return procs_.size(); }

  std::string job_dir(JobId job) const;

 private:
  enum class Intent : uint8_t { kNone, kCancel, kPreempt, kTimeLimit };
  enum class Phase : uint8_t { kRunning, kAsked, kTerminated, kKilled };
  struct Proc {
    ProcessIdentity id;
    bool child = true;  // ours to reap; adopted ones are watched through /proc
    int32_t go_fd = -1;
    Time started;
    Duration time_limit;
    Intent intent = Intent::kNone;
    Phase phase = Phase::kRunning;
    Time deadline = Time::never();  // when the current phase escalates
    bool signal_sent = false;       // the current phase's signal has gone out
    JobId job;
  };

  std::optional<JobExit> check_exit(JobId job, const Proc& p);
  void escalate(Proc& p, Time now);
  Status ask(JobId job, Intent intent, Phase phase);
  int signal_group(const Proc& p, int sig) const;
  JobExit classify(JobId job, const Proc& p, std::optional<int32_t> status) const;
  std::string exit_path(JobId job) const;
  Result<RunAs> account_for(const LaunchRequest& req) const;
  Status prepare_job_dir(JobId job, const RunAs& as) const;
  std::string cgroup_of(JobId job) const;
  Result<ProcessIdentity> start_held(const LaunchRequest& req, const RunAs& as);

  LocalExecutorOptions options_;
  std::unordered_map<JobId, Proc> procs_;
};

}  // namespace boreas::server
