#pragma once
// One cgroup v2 directory per job under the daemon's --cgroup-root: every process the job starts
// stays in it (setsid cannot leave a cgroup), and cancel kills the whole cgroup at once.

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/status.h"

namespace boreas::server {

// ROOT must be a directory of a mounted cgroup v2 hierarchy that this process may write to.
// Loud otherwise: says what is wrong and how to find a usable directory.
Status check_cgroup_root(const std::string& root);

// ROOT/boreas-job-N: the same path after a restart, so an adopted job is found again.
std::string job_cgroup_path(const std::string& root, JobId job);

// A job's limits: cpu.max gets cpu_milli × 100 µs of CPU time per 100 ms period, memory.max
// memory_mib MiB; zero leaves that one unlimited.
struct CgroupLimits {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
};

// Enables the cpu and memory controllers for ROOT's children (cgroup.subtree_control). Returns
// what is missing, in words ("" = both available): without them jobs get no limits, the
// cgroup's other uses stay (boreas serve prints this at start).
std::string enable_limit_controllers(const std::string& root);

// Writes LIMITS into the cgroup at PATH; a limit file it lacks is skipped.
Status write_limits(const std::string& path, CgroupLimits limits);

// Creates the job's cgroup (an existing one is reused), writes its limits (a limit file the
// cgroup lacks — controller not enabled — is skipped), and moves PID into it.
Status enter_cgroup(const std::string& path, int32_t pid, CgroupLimits limits = {});

// The pids in the cgroup (cgroup.procs); empty when it does not exist.
std::vector<int32_t> cgroup_pids(const std::string& path);

// Kills every process in it: cgroup.kill (Linux 5.14+), or SIGKILL to each pid of cgroup.procs.
void kill_cgroup(const std::string& path);

// Removes the cgroup once it is empty; a non-empty or absent one is left as is.
void remove_cgroup(const std::string& path);

}  // namespace boreas::server
