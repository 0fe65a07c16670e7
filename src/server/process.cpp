#include "server/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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
  const char* exit_path;
  std::string exit_tmp;
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

void redirect(int target, const char* path, int flags) {
  const int fd = open(path, flags, 0644);
  if (fd >= 0) {
    dup2(fd, target);
    close(fd);
  }
}

[[noreturn]] void run_command(const ChildPlan& plan) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGPIPE}) {
    signal(sig, SIG_DFL);
  }
  redirect(STDIN_FILENO, "/dev/null", O_RDONLY);
  redirect(STDOUT_FILENO, plan.out, O_WRONLY | O_CREAT | O_APPEND);
  redirect(STDERR_FILENO, plan.err, O_WRONLY | O_CREAT | O_APPEND);
  if (chdir(plan.cwd) != 0) {
    static const char kMsg[] = "boreas: cannot change to the job's working directory\n";
    write_all(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
    _exit(kExitCannotRun);
  }
  execve(plan.argv[0], plan.argv.data(), plan.envp.data());
  static const char kMsg[] = "boreas: cannot execute the job's command\n";
  write_all(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
  _exit(kExitCannotRun);
}

void record_exit(const ChildPlan& plan, int status) {
  const int fd = open(plan.exit_tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    return;
  }
  char buf[16];
  const size_t n = format_int(status, buf);
  write_all(fd, buf, n);
  fsync(fd);
  close(fd);
  rename(plan.exit_tmp.c_str(), plan.exit_path);
  const int dir = open(plan.exit_dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    fsync(dir);
    close(dir);
  }
}

[[noreturn]] void supervise(const ChildPlan& plan, int go_fd) {
  setpgid(0, 0);
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
  in >> st.state;  // field 3
  std::string skip;
  for (int field = 4; field < 22 && in; ++field) {
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
  ChildPlan plan{c_strings(argv), c_strings(spec.env), spec.cwd.c_str(), spec.stdout_path.c_str(),
                 spec.stderr_path.c_str(), spec.exit_path.c_str(), spec.exit_path + ".tmp",
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
  setpgid(pid, pid);  // also done by the child; whichever runs first wins the race
  return Spawned{pid, fds[1]};
}

std::optional<int32_t> read_exit_status(const std::string& exit_path) {
  std::ifstream f(exit_path);
  int32_t status = 0;
  if (!(f >> status)) {
    return std::nullopt;
  }
  return status;
}

}  // namespace boreas::server
