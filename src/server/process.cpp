#include "server/process.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace boreas::server {
namespace {

constexpr int kExitHeldAborted = 125;
constexpr int kExitCannotRun = 127;

// Everything the child needs, laid out before fork: after fork only async-signal-safe calls.
struct ChildPlan {
  std::vector<char*> argv;
  std::vector<char*> envp;
  const char* cwd;
  const char* out;
  const char* err;
  const char* user_out;  // empty = none (SpawnSpec::output_path)
  const char* user_err;
  const char* exit_path;
  std::string exit_tmp;
  const RunAs* run_as;
  std::string exit_dir;  // fsync'd after the rename, so the exit file's name survives power loss
};

std::vector<char*> c_strings(const std::vector<std::string>& v) {
  std::vector<char*> out;
  out.reserve(v.size() + 1);
  for (const auto& s : v) {
    out.push_back(const_cast<char*>(s.c_str()));
  }
  out.push_back(nullptr);
  return out;
}

void write_all(int fd, const char* buf, size_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, buf, n);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    if (w <= 0) {
      return;
    }
    buf += w;
    n -= static_cast<size_t>(w);
  }
}

// Formats a non-negative int without allocation (async-signal-safe).
size_t format_int(int32_t v, char* buf) {
  char tmp[16];
  size_t n = 0;
  uint32_t u = static_cast<uint32_t>(v);
  do {
    tmp[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  for (size_t i = 0; i < n; ++i) {
    buf[i] = tmp[n - 1 - i];
  }
  return n;
}

// Opens `path` on `target`; false when it cannot be opened (`target` is then left as it was).
bool redirect(int target, const char* path, int flags) {
  const int fd = open(path, flags, 0644);
  if (fd < 0) {
    return false;
  }
  dup2(fd, target);
  close(fd);
  return true;
}

[[noreturn]] void cannot_run(const char* msg, size_t n) {
  write_all(STDERR_FILENO, msg, n);
  _exit(kExitCannotRun);
}

// sbatch -o/-e: the job's own file on `target`, or the job fails saying which file (on the job
// directory's stderr.log, still open as stderr when stdout's file fails).
void open_user_file(int target, const char* path) {
  if (path[0] == '\0') {
    return;
  }
  if (!redirect(target, path, O_WRONLY | O_CREAT | O_APPEND)) {
    static const char kMsg[] = "boreas: cannot open the job's output file (sbatch -o/-e) as its account: ";
    write_all(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
    write_all(STDERR_FILENO, path, strlen(path));
    write_all(STDERR_FILENO, "\n", 1);
    _exit(kExitCannotRun);
  }
}

// Groups, then group, then user: after setuid the process could no longer change the others.
void drop_privileges(const RunAs& as) {
  if (!as.switch_user) {
    return;
  }
  static const char kMsg[] = "boreas: cannot switch to the job's Unix account\n";
  if (setgroups(as.groups.size(), as.groups.data()) != 0 || setgid(as.gid) != 0 || setuid(as.uid) != 0 ||
      (as.uid != 0 && setuid(0) == 0)) {
    cannot_run(kMsg, sizeof(kMsg) - 1);
  }
}

[[noreturn]] void run_command(const ChildPlan& plan) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGPIPE}) {
    signal(sig, SIG_DFL);
  }
  umask(022);  // the daemon's own is 077
  drop_privileges(*plan.run_as);  // before the logs are opened: the job's owner owns its directory
  redirect(STDIN_FILENO, "/dev/null", O_RDONLY);
  redirect(STDOUT_FILENO, plan.out, O_WRONLY | O_CREAT | O_APPEND);
  redirect(STDERR_FILENO, plan.err, O_WRONLY | O_CREAT | O_APPEND);
  if (chdir(plan.cwd) != 0) {
    static const char kMsg[] = "boreas: cannot change to the job's working directory\n";
    write_all(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
    _exit(kExitCannotRun);
  }
  open_user_file(STDOUT_FILENO, plan.user_out);  // after the chdir: relative to the working directory
  open_user_file(STDERR_FILENO, plan.user_err);
  execve(plan.argv[0], plan.argv.data(), plan.envp.data());
  static const char kMsg[] = "boreas: cannot execute the job's command\n";
  write_all(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
  _exit(kExitCannotRun);
}

// The job's owner owns the directory: never follow a link planted there, never reuse a file.
void record_exit(const ChildPlan& plan, int status) {
  unlink(plan.exit_tmp.c_str());
  const int fd = open(plan.exit_tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    return;
  }
  char buf[16];
  const size_t n = format_int(status, buf);
  write_all(fd, buf, n);
  fsync(fd);
  close(fd);
  rename(plan.exit_tmp.c_str(), plan.exit_path);
  const int dir = open(plan.exit_dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir >= 0) {
    fsync(dir);
    close(dir);
  }
}

// Parses the parent pid and state out of the text of /proc/PID/stat (async-signal-safe).
bool stat_ppid(const char* buf, size_t n, char& state, int32_t& ppid) {
  size_t close = n;
  for (size_t i = 0; i < n; ++i) {
    if (buf[i] == ')') {
      close = i;
    }
  }
  if (close + 4 >= n) {
    return false;
  }
  state = buf[close + 2];
  ppid = 0;
  for (size_t i = close + 4; i < n && buf[i] >= '0' && buf[i] <= '9'; ++i) {
    ppid = ppid * 10 + (buf[i] - '0');
  }
  return true;
}

// SIGKILLs every live child of this process; returns how many (async-signal-safe).
int kill_children(int32_t self) {
  const int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) {
    return 0;
  }
  int killed = 0;
  alignas(8) char entries[4096];
  for (ssize_t n; (n = getdents64(dir, entries, sizeof(entries))) > 0;) {
    for (ssize_t off = 0; off < n;) {
      const auto* d = reinterpret_cast<const struct dirent64*>(entries + off);
      off += d->d_reclen;
      if (d->d_name[0] < '1' || d->d_name[0] > '9') {
        continue;
      }
      char path[64] = "/proc/";
      size_t len = 6;
      for (const char* c = d->d_name; *c != 0 && len < 40; ++c) {
        path[len++] = *c;
      }
      memcpy(path + len, "/stat", 6);
      const int fd = open(path, O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        continue;
      }
      char stat[512];
      const ssize_t got = read(fd, stat, sizeof(stat));
      close(fd);
      char state = '?';
      int32_t ppid = 0;
      if (got > 0 && stat_ppid(stat, static_cast<size_t>(got), state, ppid) && ppid == self && state != 'Z') {
        int32_t pid = 0;
        for (const char* c = d->d_name; *c >= '0' && *c <= '9'; ++c) {
          pid = pid * 10 + (*c - '0');
        }
        kill(pid, SIGKILL);
        ++killed;
      }
    }
  }
  close(dir);
  return killed;
}

// What the command left running (daemons, `setsid` children) was reparented to us, the subreaper:
// kill it and reap it, round after round, until nothing is left.
void kill_leftovers() {
  const int32_t self = getpid();
  for (int round = 0; round < 1000; ++round) {
    const int killed = kill_children(self);
    if (killed == 0) {
      break;
    }
    for (int i = 0; i < killed; ++i) {
      while (waitpid(-1, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
  while (waitpid(-1, nullptr, WNOHANG) > 0) {
  }
}

[[noreturn]] void supervise(const ChildPlan& plan, int go_fd) {
  setsid();  // the job's own session and process group, both numbered by our pid
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (go_fd > 3) {
    close_range(3, static_cast<unsigned>(go_fd) - 1, 0);
  }
  close_range(static_cast<unsigned>(go_fd) + 1, ~0U, 0);
  char go = 0;
  ssize_t n = 0;
  do {
    n = read(go_fd, &go, 1);
  } while (n < 0 && errno == EINTR);
  if (n != 1) {
    record_exit(plan, kNeverRanStatus);  // so a restarted daemon knows it is safe to run again
    _exit(kExitHeldAborted);  // the daemon died or aborted the launch: never run
  }
  close(go_fd);
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1}) {
    signal(sig, SIG_IGN);  // before forking, so no signal can slip in between
  }
  const pid_t cmd = fork();
  if (cmd == 0) {
    run_command(plan);
  }
  int status = (kExitCannotRun << 8);
  if (cmd > 0) {
    while (waitpid(cmd, &status, 0) < 0 && errno == EINTR) {
    }
  }
  kill_leftovers();
  record_exit(plan, status);
  _exit(0);
}

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
  std::vector<std::string> argv = spec.argv;
  argv[0] = *exe;
  ChildPlan plan{c_strings(argv),
                 c_strings(spec.env),
                 spec.cwd.c_str(),
                 spec.stdout_path.c_str(),
                 spec.stderr_path.c_str(),
                 spec.output_path.c_str(),
                 spec.error_path.c_str(),
                 spec.exit_path.c_str(),
                 spec.exit_path + ".tmp",
                 &spec.run_as,
                 std::filesystem::path(spec.exit_path).parent_path().string()};
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return io_error("cannot create a pipe for the job: " + std::string(strerror(errno)));
  }
  const pid_t pid = fork();
  if (pid == 0) {
    supervise(plan, fds[0]);
  }
  close(fds[0]);
  if (pid < 0) {
    close(fds[1]);
    return io_error("cannot fork the job: " + std::string(strerror(errno)));
  }
  return Spawned{pid, fds[1]};  // the child makes itself a session leader (setsid)
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
