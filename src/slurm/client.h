#pragma once
// Drives a Slurm cluster through its command-line tools: sbatch, scontrol, scancel, squeue --json,
// sinfo --json. Every failure is a Status that names the command and carries Slurm's own stderr.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "slurm/command.h"
#include "slurm/state.h"
#include "slurm/topology.h"

namespace boreas::slurm {

struct ClientOptions {
  std::string slurm_conf;  // empty: the tools find it themselves (SLURM_CONF or /etc/slurm)
};

struct SubmitRequest {
  std::string name;                    // --job-name
  std::string comment;                 // --comment, e.g. "boreas:42"
  std::vector<std::string> argv;       // the command, run by the batch script
  std::vector<std::string> env;        // "NAME=value", exported into the job
  std::string cwd;                     // --chdir; empty = sbatch's own
  std::string output;                  // --output; empty = Slurm's default
  std::string error;                   // --error; empty = with the output
  uint32_t nodes = 1;                  // --nodes (fixed at submit: Slurm refuses to change it later)
  uint32_t gpus_per_node = 0;          // --gres=gpu[:TYPE]:N
  std::string gpu_type;                // Slurm's GRES type, e.g. "h100"; empty = any
  std::vector<std::string> node_list;  // --nodelist; empty = pin later
  uint32_t time_limit_min = 0;         // --time; 0 = the partition's
  std::optional<uint32_t> uid;         // --uid (only root may); the job runs as that user
  bool hold = true;                    // --hold: nothing starts until release()
  // The batch script writes the command's exit code there when the command returns (not when the
  // script is killed), so it outlives slurmctld's memory of the job; empty = none.
  std::string exit_file;
};

// The sbatch arguments for a request (without the program name).
std::vector<std::string> sbatch_args(const SubmitRequest& req);

// The command as one shell word list for --wrap: every argument single-quoted.
std::string shell_quote(const std::vector<std::string>& argv);

class Client {
 public:
  explicit Client(ClientOptions options) : options_(std::move(options)) {}

  Result<uint64_t> submit(const SubmitRequest& req) const;
  Status pin(uint64_t job, const std::vector<std::string>& nodes) const;
  Status release(uint64_t job) const;
  Status signal(uint64_t job, const std::string& signal, bool whole_job) const;  // --full or --batch
  Status requeue(uint64_t job, bool hold) const;                                 // requeuehold when hold
  Status start_now(uint64_t job) const;  // StartTime=now (skip the requeue delay)
  Status cancel(uint64_t job) const;
  Status drain(const std::string& node, const std::string& reason) const;
  Status resume(const std::string& node) const;

  Result<std::vector<SlurmJob>> jobs() const;  // every job slurmctld still remembers
  Result<SlurmJob> job(uint64_t id) const;
  Result<std::vector<SlurmNode>> nodes() const;
  Result<std::vector<SlurmSwitch>> topology() const;
  Status ping() const;  // the controller answers

 private:
  // `env`: variables for the command on top of SLURM_CONF (sbatch --export=ALL passes them on).
  Result<std::string> run(const std::vector<std::string>& argv, std::vector<std::string> env = {}) const;
  Status run_ok(const std::vector<std::string>& argv) const;

  ClientOptions options_;
};

}  // namespace boreas::slurm
