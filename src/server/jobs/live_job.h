#pragma once
// A job as the live daemon tracks it: the request as submitted plus where and how it runs.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/job.h"
#include "core/time.h"
#include "server/exec/executor.h"

namespace boreas::server {

// What happens when a job fails (non-zero exit) or its process is lost (e.g. killed with the
// daemon down): "never" (fail) or "on-failure[:N]" (back to the queue, at most N times).
struct RestartPolicy {
  bool on_failure = false;
  uint32_t max_restarts = 0;
};

// What a client asks for (POST /v1/jobs); validated by parse_submit().
struct SubmitRequest {
  std::string name;
  std::vector<std::string> command;
  std::map<std::string, std::string> env;
  std::string cwd;
  std::string queue = "default";
  std::string priority_class;  // empty = the queue's default
  uint32_t gpus = 0;
  // A share of one GPU (server/jobs/gpu_share.h; docs/live.md, "Sharing a GPU"): `gpus` 0.001..0.999
  // is gpus 1 with gpu_milli 1..999, and/or `gpu_memory`. 0 and 0 = whole GPUs.
  uint32_t gpu_milli = 0;
  uint64_t gpu_memory_bytes = 0;
  bool shares_gpu() const { return gpu_milli > 0 || gpu_memory_bytes > 0; }
  std::string gpu_type;  // empty = any
  int64_t cpu_milli = 0;   // `cpus` × 1000; 0 = the default share of its node (server/node_resources.h)
  int64_t memory_mib = 0;  // `memory`; 0 = the default share of its node
  Duration time_limit;   // zero = none
  RestartPolicy restart;
  std::string dependency;  // sbatch --dependency, e.g. "afterok:12:13" (server/dependency.h); empty = none
  std::string output;  // sbatch -o: the stdout file pattern (server/output_path.h); empty = DATA/jobs/ID/stdout.log
  std::string error;   // sbatch -e: the stderr file pattern; empty = DATA/jobs/ID/stderr.log
  // Set by the daemon from the submitter's token, never by the client: the Unix account the job
  // runs as (empty = the daemon's own). Stored with the spec, so a restart runs it as the same.
  std::string run_as;
};

// One node of a job's allocation: the node's index in the cluster spec and its node-local GPUs.
struct JobNode {
  int32_t node = -1;
  std::vector<uint32_t> gpus;
  bool operator==(const JobNode&) const = default;
};

struct LiveJob {
  JobId id;
  std::string owner;
  SubmitRequest request;
  int32_t priority = 0;  // value of the priority class; higher starts first
  JobState state = JobState::kPending;
  std::string reason;   // why it is pending, or how it ended
  // The nodes it holds GPUs on, in node order (one, unless the executor spans nodes: a gang larger
  // than a node); kept once it ended, as where it ran. Empty while unplaced; a job without GPUs
  // runs on one node with none.
  std::vector<JobNode> placement;
  // A share job's share of its one GPU while placed (kept once it ended); 0 for whole GPUs.
  uint32_t share_milli = 0;
  uint64_t share_bytes = 0;
  ProcessIdentity process;
  Time submit;
  Time start;
  Time end;
  uint32_t attempts = 0;  // launches so far (preemptions and requeues add one each)
  uint32_t restarts = 0;  // restarts after a failure or a lost process (restart policy)
  int32_t exit_code = -1;
  uint32_t preemptions = 0;  // times the policy preempted it: its per-job preemption cap counts these
  Duration ran;              // wall time of its ended runs; with the current run, its attained service
  std::string idempotency_key;  // the submit's Idempotency-Key header, empty when none; unique per owner
  // Not stored: a restarted daemon adopts processes afresh and plans a new round.
  bool stopping = false;         // asked to stop (preempt, checkpoint, cancel); holds its GPUs until it exits
  std::vector<JobId> waits_for;  // stopping jobs whose GPUs the policy gave this pending job
  std::string reason_kind;       // while pending: the policy's PendingKind name, empty when it gave none
  // While running: the executor launched and released it, but its own scheduler still keeps it
  // waiting (Slurm: PENDING and squeue's reason, e.g. "Resources"); empty once it runs.
  std::string executor_wait;
};

inline uint32_t gpu_count(const std::vector<JobNode>& placement) {
  uint32_t n = 0;
  for (const JobNode& p : placement) {
    n += static_cast<uint32_t>(p.gpus.size());
  }
  return n;
}

}  // namespace boreas::server
