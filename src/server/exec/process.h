#pragma once
// Process plumbing for the local executor: identity from /proc and the held, supervised spawn.

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace boreas::server {

struct ProcStat {
  char state = '?';          // R, S, D, Z, ...
  int32_t ppid = 0;          // field 4
  int32_t pgrp = 0;          // field 5
  int32_t session = 0;       // field 6
  uint64_t start_ticks = 0;  // field 22: start time after boot, in clock ticks
};

// Reads /proc/PID/stat; nullopt when the process does not exist.
std::optional<ProcStat> read_proc_stat(int32_t pid);
// Parses the text of /proc/PID/stat (the command name may hold spaces and parentheses).
std::optional<ProcStat> parse_proc_stat(const std::string& text);

// The account a job's command runs as, resolved before forking (getpwnam is not fork-safe).
struct RunAs {
  bool switch_user = false;  // false: the daemon's own account
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;  // supplementary groups (initgroups' list)
  std::string name;           // for USER and LOGNAME
  std::string home;           // for HOME
};

// The account NAME from the password database: uid, primary group and supplementary groups.
// Loud when the account does not exist.
Result<RunAs> lookup_account(const std::string& name);

struct SpawnSpec {
  std::vector<std::string> argv;  // argv[0] is resolved against PATH before forking
  std::vector<std::string> env;   // the full environment of the command
  std::string cwd;
  std::string stdout_path;
  std::string stderr_path;
  // sbatch -o/-e: files the command writes instead (relative to cwd; empty = none). Opened after
  // the switch to the job's account and the chdir; one that cannot be opened fails the job, with
  // the reason in stderr_path.
  std::string output_path;
  std::string error_path;
  std::string exit_path;  // the supervisor writes the command's wait status here
  RunAs run_as;           // the command drops to this account before it opens its logs
};

struct Spawned {
  int32_t pid = 0;   // the supervisor, leader of the job's process group
  int32_t go_fd = -1;  // write one byte to start the command; close to abort it
};

// Starts a supervisor (supervisor.h: the daemon's binary as `__supervise`, by posix_spawn, so the
// daemon's memory is never copied) in a new session (its pid is the session and process group
// id). It is a child subreaper, so every descendant of the command stays in its tree even after
// `setsid`. It waits for the go byte, runs the command as its child (as spec.run_as), and when the
// command ends kills whatever the command left behind, writes the wait status to exit_path
// (atomically, never following a link) and exits. It ignores SIGTERM, SIGINT, SIGHUP and SIGUSR1
// so it outlives the command and records how it ended.
Result<Spawned> spawn_supervised(const SpawnSpec& spec);

// Resolves a command name against PATH in `env` ("PATH=..."); names with a '/' are kept.
Result<std::string> resolve_command(const std::string& name, const std::vector<std::string>& env);

// What a supervisor writes instead of a wait status when its launch was aborted (the daemon died
// or aborted it before the go byte): the command never ran. No wait status is this large.
constexpr int32_t kNeverRanStatus = 1 << 20;

// Reads the wait status written by a supervisor; nullopt when the file is absent, garbled or not a
// regular file (the job's owner controls its directory: a FIFO or link there must not stall us).
std::optional<int32_t> read_exit_status(const std::string& exit_path);

// Every process of the job whose supervisor is `leader`: its session, its process group and every
// descendant (a `setsid` child included), from one scan of /proc. The leader itself is left out.
std::vector<int32_t> job_processes(int32_t leader);

}  // namespace boreas::server
