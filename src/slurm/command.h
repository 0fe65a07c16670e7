#pragma once
// Runs one Slurm command (no shell) and captures what it printed. The Slurm client talks to Slurm
// through its command-line tools only (docs/live.md, "Why the command-line tools").

#include <string>
#include <vector>

#include "core/status.h"

namespace boreas::slurm {

struct CommandOutput {
  int exit_code = -1;  // 128+signal when the command was killed
  std::string out;
  std::string err;
};

// argv[0] is looked up on PATH; env entries ("NAME=value") are added to the caller's environment.
// Fails only when the command cannot be started; a non-zero exit is the caller's to judge.
Result<CommandOutput> run_command(const std::vector<std::string>& argv, const std::vector<std::string>& env);

// "'sbatch --hold ...'": how an error message names the command.
std::string quote_command(const std::vector<std::string>& argv);

}  // namespace boreas::slurm
