#pragma once
// `boreas submit`'s options, as sbatch spells them, read from the command line and from a batch
// script's `#SBATCH` / `#BOREAS` lines (before its first command). The command line overrides
// the script, as in sbatch. Every value is text until the request is built, so "not given" is
// the empty string and the two sources merge field by field.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cli/command.h"

namespace boreas::cli {

struct SubmitArgs {
  std::string gpus;        // -G/--gpus N or TYPE:N
  std::string gpu_type;    // --gpu-type
  std::string cpus;        // -c/--cpus-per-task/--cpus: CPUs beside its GPUs (fractions to 0.001)
  std::string mem;         // --mem: MiB, or 512M, 4G, 1T
  std::string gpu_memory;  // --gpu-memory: a share of one GPU's memory, as --mem
  std::string queue;       // -A/--account/--queue
  std::string qos;         // -q/--qos/--priority: the priority class
  std::string time;        // -t/--time/--time-limit: any core/duration.h form
  std::string name;        // -J/--job-name/--name
  std::string restart;     // --restart never|on-failure[:N]
  std::string dependency;  // -d/--dependency afterok:ID[:ID],afterany:ID
  std::string array;       // -a/--array 0-9, 1,3,5-7, with %N: at most N at once
  std::string output;      // -o/--output: the stdout file pattern (%j, %x; %a in arrays)
  std::string error;       // -e/--error: the stderr file pattern
  bool parsable = false;   // --parsable: print only the id
  std::vector<std::string> command;  // the program and its arguments, or a script and its
};

// Declares the options on `cmd` (the command itself, or a parser of script lines).
void define_submit_options(CLI::App& cmd, SubmitArgs& s);

// The options set by a script's directive lines; errors name the file and line.
Result<SubmitArgs> read_directives(const std::string& script_text, const std::string& path);

// `command_line` with each option it left empty taken from `script`.
SubmitArgs merge(SubmitArgs command_line, const SubmitArgs& script);

// sbatch --array: the task indexes, and the most that may run at once (0 = no limit).
struct ArraySpec {
  std::vector<uint32_t> tasks;
  uint32_t at_once = 0;
};
inline constexpr uint32_t kMaxArrayTasks = 1000;
Result<ArraySpec> parse_array(const std::string& text);

// The body of one task of an array: named NAME_i, with SLURM_ARRAY_TASK_ID and
// BOREAS_ARRAY_TASK_ID set; `after` (a task id, 0 = none) is added as afterany:ID to hold it
// until that task ends, which keeps at most %N running.
nlohmann::json array_task_body(nlohmann::json body, uint32_t task, uint32_t after);

// The POST /v1/jobs body; errors name the option (--time, --gpus) and the forms it takes.
Result<nlohmann::json> submit_body(const SubmitArgs& s, const std::string& cwd);

}  // namespace boreas::cli
