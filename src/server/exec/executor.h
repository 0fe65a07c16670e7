#pragma once
// Executors carry out plans on real machines (ARCHITECTURE §6). The controller talks to this
// interface only, so a Slurm executor can stand beside the local one.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ids.h"
#include "core/status.h"
#include "core/time.h"

namespace boreas::server {

// One node of a job's placement: the node as the cluster spec names it, and its node-local GPUs.
struct NodeGpus {
  std::string node;
  std::vector<uint32_t> gpu_indexes;
};

struct LaunchRequest {
  JobId job;
  std::vector<std::string> argv;
  std::vector<std::string> env;  // "NAME=value", on top of the daemon's PATH and HOME
  std::string cwd;               // empty = the executor's job directory
  std::vector<uint32_t> gpu_indexes;  // node-local indexes → CUDA_VISIBLE_DEVICES
  Duration time_limit;                // zero = none
  Time started;                       // wall time the job started (time limits count from it)
  std::string user;  // Unix account to run as; empty = the daemon's own (refused as root, see docs/live.md)
  std::vector<NodeGpus> placement;    // every node it runs on (for executors that span machines)
  // sbatch -o/-e with %j and %x expanded (server/output_path.h); empty = the executor's own files.
  // A relative path is relative to the job's working directory.
  std::string stdout_path;
  std::string stderr_path;
  // Its cgroup's cpu.max and memory.max (server/node_resources.h); 0 = no limit.
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  // A share of its one GPU (docs/live.md, "Sharing a GPU"): CUDA_MPS_ACTIVE_THREAD_PERCENTAGE,
  // CUDA_MPS_PINNED_DEVICE_MEM_LIMIT and BOREAS_GPU_MEMORY_BYTES (share_env); 0 = whole GPUs.
  uint32_t gpu_share_milli = 0;
  uint64_t gpu_share_bytes = 0;
};

// The variables a share job gets: its compute share in % (at least 1, rounded down) and its
// memory limit as MPS reads it ("0=20G": device 0 is its one visible GPU; "0=20480M" when not
// whole GiB), and the limit in bytes. Empty for a whole-GPU job.
std::vector<std::string> share_env(const LaunchRequest& req);

// Variables the executor sets and a job may not: CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES,
// ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE,
// CUDA_MPS_PINNED_DEVICE_MEM_LIMIT and every BOREAS_* but BOREAS_ARRAY_TASK_ID.
bool is_reserved_env(std::string_view name);

// A process as the kernel names it: the pid alone can be reused, the start time makes it unique.
struct ProcessIdentity {
  int32_t pid = 0;
  uint64_t start_ticks = 0;  // /proc/PID/stat field 22
};

// kNeverRan: a held launch was aborted, so the command never started (safe to run again).
// kLost: the process is gone and left no exit status (e.g. its group was killed with the daemon).
enum class ExitKind : uint8_t { kCompleted, kFailed, kCancelled, kTimedOut, kPreempted, kNeverRan, kLost };
std::string_view to_string(ExitKind kind);

struct JobExit {
  JobId job;
  ExitKind kind = ExitKind::kLost;
  int32_t exit_code = -1;  // the command's exit code, 128+signal when killed, -1 when unknown
  // Executors with a scheduler of their own (Slurm) report when it ran the job and when it ended;
  // unset: unknown, the controller uses its own clock (launch and the poll that saw the exit).
  std::optional<Time> started = std::nullopt;
  std::optional<Time> ended = std::nullopt;
};

// A released job the executor's own scheduler started (Slurm: squeue's start_time once the job
// runs), first seen at the executor's last poll; the controller takes it as the job's start.
struct JobStart {
  JobId job;
  Time at;
};

// What became of a job recorded as running by an earlier daemon.
struct AdoptOutcome {
  bool alive = false;           // adopted: the same process is still running
  std::optional<JobExit> exit;  // it finished while the daemon was down
};

// A job the executor launched and released that its own scheduler still keeps waiting (Slurm:
// PENDING, with squeue's reason), as of the executor's last poll.
struct JobWait {
  JobId job;
  std::string by;      // who keeps it waiting: "Slurm"
  std::string reason;  // in its own words, e.g. Slurm's "Resources" or "JobHeldAdmin"
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Creates the job's process held: the command does not start until release(), so the caller
  // can durably record the identity first. A held process whose daemon dies exits unrun.
  virtual Result<ProcessIdentity> launch(const LaunchRequest& req) = 0;
  virtual Status release(JobId job) = 0;
  virtual Status abort(JobId job) = 0;  // a held job that must never run
  virtual AdoptOutcome adopt(const LaunchRequest& req, ProcessIdentity id) = 0;
  virtual Status cancel(JobId job) = 0;   // SIGTERM, grace, SIGKILL
  virtual Status preempt(JobId job) = 0;  // SIGUSR1 (checkpoint), grace, stop
  // Reaps finished jobs, escalates signals whose grace ran out and enforces time limits.
  virtual std::vector<JobExit> poll(Time now) = 0;
  virtual size_t running() const = 0;
  // True when one job may run across several nodes (Slurm, one job over --nodelist); the local
  // executor runs every job on this one host, so a job must fit one node of the spec.
  virtual bool spans_nodes() const { return false; }
  // True when it runs share jobs on a share of one GPU with the MPS variables (share_env); the
  // local executor does, others (Slurm) give whole GPUs and the daemon refuses shares for them.
  virtual bool shares_gpus() const { return false; }
  // Released jobs that do not run yet (executors with a scheduler of their own); none by default.
  virtual std::vector<JobWait> waiting() const { return {}; }
  // Jobs its own scheduler started since the poll before the last; none by default (the launch
  // is the start).
  virtual std::vector<JobStart> started() const { return {}; }
};

}  // namespace boreas::server
