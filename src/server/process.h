#pragma once
// Process plumbing for the local executor: identity from /proc and the held, supervised spawn.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace boreas::server {

struct ProcStat {
  char state = '?';          // R, S, D, Z, ...
  uint64_t start_ticks = 0;  // field 22: start time after boot, in clock ticks
};

// Reads /proc/PID/stat; nullopt when the process does not exist.
std::optional<ProcStat> read_proc_stat(int32_t pid);
// Parses the text of /proc/PID/stat (the command name may hold spaces and parentheses).
std::optional<ProcStat> parse_proc_stat(const std::string& text);

struct SpawnSpec {
  std::vector<std::string> argv;  // argv[0] is resolved against PATH before forking
  std::vector<std::string> env;   // the full environment of the command
  std::string cwd;
  std::string stdout_path;
  std::string stderr_path;
  std::string exit_path;  // the supervisor writes the command's wait status here
};

struct Spawned {
  int32_t pid = 0;   // the supervisor, leader of the job's process group
  int32_t go_fd = -1;  // write one byte to start the command; close to abort it
};

// Forks a supervisor in a new process group. It waits for the go byte, runs the command as its
// child, writes the wait status to exit_path (atomically) and exits. It ignores SIGTERM, SIGINT,
// SIGHUP and SIGUSR1 sent to the group so it outlives the command and records how it ended.
Result<Spawned> spawn_supervised(const SpawnSpec& spec);

// Resolves a command name against PATH in `env` ("PATH=..."); names with a '/' are kept.
Result<std::string> resolve_command(const std::string& name, const std::vector<std::string>& env);

// What a supervisor writes instead of a wait status when its launch was aborted (the daemon died
// or aborted it before the go byte): the command never ran. No wait status is this large.
constexpr int32_t kNeverRanStatus = 1 << 20;

// Reads the wait status written by a supervisor; nullopt when the file is absent or garbled.
std::optional<int32_t> read_exit_status(const std::string& exit_path);

}  // namespace boreas::server
