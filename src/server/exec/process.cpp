#include "server/exec/process.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "server/exec/supervisor.h"

namespace boreas::server {
namespace {

// The plan in a memory file: no size limit (a pipe would block past 64 KiB), gone with its fds.
Result<int> plan_file(const SpawnSpec& spec) {
  const int fd = memfd_create("boreas-plan", MFD_CLOEXEC);
  if (fd < 0) {
    return io_error("cannot create the job's plan file (memfd_create): " + std::string(strerror(errno)));
  }
  const std::string bytes = encode_plan(spec);
  if (pwrite(fd, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
    const int err = errno;
    close(fd);
    return io_error("cannot write the job's plan file: " + std::string(strerror(err)));
  }
  return fd;
}

// The supervisor's fds: the plan on 3, the go pipe on 4, nothing else of the daemon's.
struct SpawnSetup {
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attr{};
  SpawnSetup(int plan, int go) {
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, plan, kPlanFd);
    posix_spawn_file_actions_adddup2(&actions, go, kGoFd);
    posix_spawn_file_actions_addclosefrom_np(&actions, kGoFd + 1);
    posix_spawnattr_init(&attr);
    sigset_t held;  // until the supervisor ignores them: a signal to the new group must not kill it
    sigemptyset(&held);
    for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1}) {
      sigaddset(&held, sig);
    }
    posix_spawnattr_setsigmask(&attr, &held);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

}  // namespace

std::optional<ProcStat> parse_proc_stat(const std::string& text) {
  const auto close_paren = text.rfind(')');
  if (close_paren == std::string::npos) {
    return std::nullopt;
  }
  std::istringstream in(text.substr(close_paren + 1));
  ProcStat st;
  in >> st.state >> st.ppid >> st.pgrp >> st.session;  // fields 3 to 6
  std::string skip;
  for (int field = 7; field < 22 && in; ++field) {
    in >> skip;
  }
  in >> st.start_ticks;
  if (!in) {
    return std::nullopt;
  }
  return st;
}

std::optional<ProcStat> read_proc_stat(int32_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  if (!f) {
    return std::nullopt;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_proc_stat(ss.str());
}

Result<std::string> resolve_command(const std::string& name, const std::vector<std::string>& env) {
  if (name.empty()) {
    return invalid_argument("the command is empty; give a program to run");
  }
  if (name.find('/') != std::string::npos) {
    return name;
  }
  std::string path = "/usr/local/bin:/usr/bin:/bin";
  for (const auto& e : env) {
    if (e.rfind("PATH=", 0) == 0) {
      path = e.substr(5);
    }
  }
  std::istringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return invalid_argument("command `" + name + "` not found in PATH (" + path +
                          "); give its full path");
}

Result<Spawned> spawn_supervised(const SpawnSpec& spec) {
  auto exe = resolve_command(spec.argv.empty() ? std::string() : spec.argv[0], spec.env);
  if (!exe.is_ok()) {
    return exe.status();
  }
  SpawnSpec resolved = spec;
  resolved.argv[0] = *exe;
  auto plan = plan_file(resolved);
  if (!plan.is_ok()) {
    return plan.status();
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    close(*plan);
    return io_error("cannot create a pipe for the job: " + std::string(strerror(errno)));
  }
  pid_t pid = 0;
  int err = 0;
  {
    SpawnSetup setup(*plan, fds[0]);
    std::string arg(kSupervisorArg);
    char* argv[] = {const_cast<char*>(kSupervisorProgram), arg.data(), nullptr};
    char* envp[] = {nullptr};  // nothing of the job's environment reaches the supervisor itself
    err = posix_spawn(&pid, kSupervisorProgram, &setup.actions, &setup.attr, argv, envp);
  }
  close(*plan);
  close(fds[0]);
  if (err != 0) {
    close(fds[1]);
    return io_error("cannot start the job's supervisor (posix_spawn " + std::string(kSupervisorProgram) +
                    " " + std::string(kSupervisorArg) + "): " + strerror(err));
  }
  return Spawned{pid, fds[1]};  // a session leader already (POSIX_SPAWN_SETSID)
}

std::optional<int32_t> read_exit_status(const std::string& exit_path) {
  const int fd = open(exit_path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return std::nullopt;
  }
  struct stat st {};
  char buf[32] = {};
  const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  const ssize_t n = regular ? read(fd, buf, sizeof(buf) - 1) : -1;
  close(fd);
  if (n <= 0) {
    return std::nullopt;
  }
  int32_t status = 0;
  std::istringstream in(std::string(buf, static_cast<size_t>(n)));
  if (!(in >> status)) {
    return std::nullopt;
  }
  return status;
}

Result<RunAs> lookup_account(const std::string& name) {
  struct passwd pw {};
  struct passwd* found = nullptr;
  std::vector<char> buf(16384);
  const int err = getpwnam_r(name.c_str(), &pw, buf.data(), buf.size(), &found);
  if (err != 0 || found == nullptr) {
    return not_found("Unix account `" + name + "` does not exist on this machine" +
                     (err != 0 ? " (" + std::string(strerror(err)) + ")" : std::string()) +
                     "; create it (useradd) or map the token to an existing account");
  }
  RunAs as{true, pw.pw_uid, pw.pw_gid, std::vector<gid_t>(64), name, pw.pw_dir};
  int count = static_cast<int>(as.groups.size());
  if (getgrouplist(name.c_str(), pw.pw_gid, as.groups.data(), &count) < 0) {
    as.groups.resize(static_cast<size_t>(count));
    getgrouplist(name.c_str(), pw.pw_gid, as.groups.data(), &count);
  }
  as.groups.resize(static_cast<size_t>(count));
  return as;
}

std::vector<int32_t> job_processes(int32_t leader) {
  std::unordered_map<int32_t, ProcStat> procs;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    const int32_t pid = std::stoi(name);
    if (auto st = read_proc_stat(pid)) {
      procs[pid] = *st;
    }
  }
  std::vector<int32_t> out;
  for (const auto& [pid, st] : procs) {
    bool member = pid != leader && (st.session == leader || st.pgrp == leader);
    int32_t up = st.ppid;
    for (int depth = 0; !member && pid != leader && up > 1 && depth < 4096; ++depth) {
      member = up == leader;
      const auto it = procs.find(up);
      up = it == procs.end() ? 0 : it->second.ppid;
    }
    if (member) {
      out.push_back(pid);
    }
  }
  return out;
}

}  // namespace boreas::server
