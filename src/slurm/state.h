#pragma once
// Slurm's view of jobs and nodes, parsed from `squeue --json` and `sinfo --json`. The parser reads
// the 22.05 layout (plain numbers and strings) and the 23.02+ layout (numbers as
// {"set","number"} objects, states as lists, exit codes as objects), so one Boreas build works
// with either (docs/live.md, "Slurm").

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "slurm/gres.h"

namespace boreas::slurm {

struct SlurmJob {
  uint64_t id = 0;
  std::string name;
  std::string comment;  // --comment at submit (Boreas writes "boreas:JOBID")
  std::string state;    // "PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED", ...
  std::string reason;   // Slurm's reason, "None" when it has none ("JobHeldUser", "Resources", ...)
  std::vector<std::string> nodes;                  // allocated (expanded)
  std::vector<std::string> required_nodes;         // the pin (expanded)
  std::vector<std::vector<uint32_t>> gpu_indexes;  // per allocated node, from gres_detail
  int32_t exit_code = 0;                           // the command's exit code; 128+signal when killed
  int64_t submit_time = 0;                         // Unix seconds; 0 = not yet
  int64_t start_time = 0;
  int64_t end_time = 0;
  uint32_t restarts = 0;
  uint32_t user_id = 0;
  bool held() const { return state == "PENDING" && (reason == "JobHeldUser" || reason == "JobHeldAdmin"); }
  bool finished() const;  // a terminal state: it will not run again unless requeued
  // Slurm's accounting of the run, Unix seconds: when Slurm started it, 0 while it has not run
  // (pending, held, or cancelled before it ran: Slurm then sets start_time to the cancel time, and
  // a pending job's start_time is only the scheduler's guess). The end is end_time (0 until it ended).
  int64_t started_at() const;
};

struct SlurmNode {
  std::string name;
  std::string state;               // base state, lower case: "idle", "mixed", "allocated", "down", ...
  std::vector<std::string> flags;  // upper case: "DRAIN", "NOT_RESPONDING", ...
  std::string reason;
  std::vector<Gres> gres;
  std::vector<Gres> gres_used;
  std::vector<std::string> features;
  std::vector<std::string> partitions;
  uint32_t cpus = 0;
  uint64_t memory_mib = 0;
  bool in_service() const;  // not down, drained, draining, failed or not responding
};

Result<std::vector<SlurmJob>> parse_jobs_json(std::string_view text);
Result<std::vector<SlurmNode>> parse_nodes_json(std::string_view text);

// A raw wait status (22.05's "exit_code") as a command exit code: 768 -> 3, SIGKILL -> 137.
int32_t exit_code_from_wait_status(int64_t status);

}  // namespace boreas::slurm
