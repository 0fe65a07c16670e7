#pragma once
// Runs Boreas jobs as Slurm jobs (docs/live.md, "Slurm"). Boreas's scheduler chooses the nodes;
// every job is submitted held and pinned there (--nodelist, --gres=gpu:TYPE:N per node), then
// released once the controller has durably recorded it. The identity is the Slurm job id.
// Slurm, not Boreas, picks the GPU indexes inside a node (Slurm 22.05 cannot be told them);
// the counts per node are the ones Boreas chose.

#include <unordered_map>

#include "exec_slurm/node_map.h"
#include "server/exec/executor.h"
#include "slurm/client.h"

namespace boreas::exec_slurm {

struct SlurmExecutorOptions {
  slurm::ClientOptions client;
  std::string jobs_dir;  // <jobs_dir>/<id>/stdout.log: the job's output (on a shared file system)
  Duration grace = Duration::seconds(10);  // checkpoint signal -> cancel, for preemption
  NodeMap nodes;
  Duration poll_every = Duration::millis(200);  // squeue at most this often (it costs slurmctld an RPC)
  bool allow_root_jobs = false;  // serve --allow-root-jobs: as root, a job may run as uid 0
};

class SlurmExecutor final : public server::Executor {
 public:
  explicit SlurmExecutor(SlurmExecutorOptions options)
      : options_(std::move(options)), client_(options_.client) {}

  Result<server::ProcessIdentity> launch(const server::LaunchRequest& req) override;
  Status release(JobId job) override;
  Status abort(JobId job) override;
  server::AdoptOutcome adopt(const server::LaunchRequest& req, server::ProcessIdentity id) override;
  Status cancel(JobId job) override;
  Status preempt(JobId job) override;
  // Also, once (the first poll, after every adopt): cancels held Slurm jobs marked "boreas:ID"
  // that no adopt claimed: launched by a daemon killed before it recorded them, so never run.
  std::vector<server::JobExit> poll(Time now) override;
  size_t running() const override { return jobs_.size(); }
  bool spans_nodes() const override { return true; }  // one Slurm job over --nodelist
  // Released jobs Slurm keeps PENDING at the last poll, with squeue's reason ("Resources", ...).
  std::vector<server::JobWait> waiting() const override { return waiting_; }
  // Slurm's start (squeue's start_time) of the jobs the last poll first found running: the job's
  // start in Boreas, so `boreas jobs`, the API and the store show when Slurm ran it.
  std::vector<server::JobStart> started() const override { return started_; }

  // The sbatch request for a launch (exposed for tests).
  Result<slurm::SubmitRequest> submit_request(const server::LaunchRequest& req) const;

 private:
  enum class Intent : uint8_t { kNone, kCancel, kPreempt, kAbort, kTimeLimit };
  struct Tracked {
    uint64_t slurm_id = 0;
    uint32_t restarts = 0;
    Time launched;                  // LaunchRequest::started: Boreas's launch (or its recorded start)
    Duration limit;                 // the time limit; zero = none
    bool start_seen = false;        // a poll found it running in Slurm and reported the start
    Time limit_at = Time::never();  // Slurm's start + time limit: Boreas ends it then (Slurm's
                                    // --time counts whole minutes and serves as a backstop)
    Intent intent = Intent::kNone;
    Time deadline = Time::never();  // preemption: when the grace ends and the job is cancelled
    bool stop_sent = false;         // the cancel that ends a preempted or timed-out job went through
  };

  std::optional<server::JobExit> check(JobId job, Tracked& t, const slurm::SlurmJob* sj, Time now);
  server::JobExit classify(JobId job, const Tracked& t, const slurm::SlurmJob& sj) const;
  static Tracked tracked(uint64_t slurm_id, uint32_t restarts, const server::LaunchRequest& req);
  void observe_start(JobId job, Tracked& t, const slurm::SlurmJob& sj);
  std::string exit_file(JobId job) const;  // <jobs_dir>/<id>/slurm-exit; empty without a jobs_dir
  server::JobExit exit_from_file(JobId job, const Tracked& t) const;
  Result<uint64_t> slurm_id(JobId job) const;
  void sweep_unrecorded(const std::vector<slurm::SlurmJob>& all);

  SlurmExecutorOptions options_;
  slurm::Client client_;
  std::unordered_map<JobId, Tracked> jobs_;
  Time last_poll_ = Time::zero();
  bool swept_ = false;  // the first poll cancels held Boreas jobs no one recorded
  std::vector<server::JobWait> waiting_;
  std::vector<server::JobStart> started_;  // first seen running by the last poll
};

// "boreas:42": the comment that marks a Slurm job as Boreas job 42.
std::string job_comment(JobId job);

}  // namespace boreas::exec_slurm
