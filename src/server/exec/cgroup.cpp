#include "server/exec/cgroup.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace boreas::server {
namespace {

constexpr long kCgroup2Magic = 0x63677270;  // CGROUP2_SUPER_MAGIC (linux/magic.h)
constexpr int64_t kCpuPeriodUs = 100000;     // cpu.max's default period

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  f.flush();
  return static_cast<bool>(f);
}

}  // namespace

Status check_cgroup_root(const std::string& root) {
  const std::string where = "--cgroup-root " + root + ": ";
  struct statfs fs {};
  if (statfs(root.c_str(), &fs) != 0) {
    return invalid_argument(where + strerror(errno) + "; give a directory of the cgroup v2 hierarchy "
                            "(`mount -t cgroup2` or /sys/fs/cgroup/unified on a hybrid machine)");
  }
  if (static_cast<long>(fs.f_type) != kCgroup2Magic) {
    return invalid_argument(where + "not on a cgroup v2 file system (cgroup v1 cannot kill a whole "
                            "cgroup); `grep cgroup2 /proc/mounts` shows where v2 is mounted");
  }
  if (access(root.c_str(), W_OK) != 0) {
    return invalid_argument(where + "this process may not create cgroups there (" +
                            std::string(strerror(errno)) + "); run as root or delegate the directory");
  }
  return Status::ok();
}

std::string job_cgroup_path(const std::string& root, JobId job) {
  return root + "/boreas-job-" + std::to_string(job.value());
}

std::string enable_limit_controllers(const std::string& root) {
  std::string missing;
  for (const char* controller : {"cpu", "memory"}) {
    if (!write_file(root + "/cgroup.subtree_control", std::string("+") + controller)) {
      missing += std::string(missing.empty() ? "" : " and ") + controller;
    }
  }
  return missing.empty() ? "" : "the " + missing + " controller" + (missing.find(' ') != std::string::npos ? "s are" : " is") +
                                   " not available for " + root + "'s children (cgroup.controllers lists what "
                                   "its parent enables): jobs there run without CPU and memory limits";
}

Status write_limits(const std::string& path, CgroupLimits limits) {
  const std::string cpu = path + "/cpu.max";
  if (limits.cpu_milli > 0 && access(cpu.c_str(), F_OK) == 0 &&
      !write_file(cpu, std::to_string(limits.cpu_milli * kCpuPeriodUs / 1000) + " " + std::to_string(kCpuPeriodUs))) {
    return io_error("cannot write " + cpu + ": " + strerror(errno));
  }
  const std::string memory = path + "/memory.max";
  if (limits.memory_mib > 0 && access(memory.c_str(), F_OK) == 0 &&
      !write_file(memory, std::to_string(limits.memory_mib * 1024 * 1024))) {
    return io_error("cannot write " + memory + ": " + strerror(errno));
  }
  return Status::ok();
}

Status enter_cgroup(const std::string& path, int32_t pid, CgroupLimits limits) {
  if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
    return io_error("cannot create cgroup " + path + ": " + strerror(errno));
  }
  BOREAS_RETURN_IF_ERROR(write_limits(path, limits));
  if (!write_file(path + "/cgroup.procs", std::to_string(pid))) {
    return io_error("cannot move pid " + std::to_string(pid) + " into cgroup " + path);
  }
  return Status::ok();
}

std::vector<int32_t> cgroup_pids(const std::string& path) {
  std::vector<int32_t> out;
  std::ifstream f(path + "/cgroup.procs");
  for (int32_t pid = 0; f >> pid;) {
    out.push_back(pid);
  }
  return out;
}

void kill_cgroup(const std::string& path) {
  if (write_file(path + "/cgroup.kill", "1")) {
    return;
  }
  for (int round = 0; round < 10; ++round) {  // a process may fork while we kill its siblings
    const std::vector<int32_t> pids = cgroup_pids(path);
    for (int32_t pid : pids) {
      kill(pid, SIGKILL);
    }
    if (pids.empty()) {
      return;
    }
  }
}

void remove_cgroup(const std::string& path) { rmdir(path.c_str()); }

}  // namespace boreas::server
