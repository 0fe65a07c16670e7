// `boreas __supervise`: a job's supervisor (supervisor.h), and the plan it reads.

#include "server/exec/supervisor.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <iostream>

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

// Defaults first, then unblock: a signal the daemon sent between the fork and here was kept
// pending by the mask (a blocked signal is never discarded as ignored) and now takes effect.
[[noreturn]] void run_command(const ChildPlan& plan) {
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGPIPE}) {
    signal(sig, SIG_DFL);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
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

// The job's session (POSIX_SPAWN_SETSID made us its leader) waits for the go byte, then runs the
// command as our child and records how it ended.
[[noreturn]] void supervise(const ChildPlan& plan, int go_fd) {
  prctl(PR_SET_CHILD_SUBREAPER, 1);
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
  // The job's signals are ignored here; blocked across the fork, the command keeps any that
  // arrive before it restores their defaults (run_command) instead of losing them.
  sigset_t job_signals;
  sigset_t before;
  sigemptyset(&job_signals);
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1}) {
    sigaddset(&job_signals, sig);
  }
  sigprocmask(SIG_BLOCK, &job_signals, &before);
  const pid_t cmd = fork();
  if (cmd == 0) {
    run_command(plan);
  }
  sigprocmask(SIG_SETMASK, &before, nullptr);
  int status = (kExitCannotRun << 8);
  if (cmd > 0) {
    while (waitpid(cmd, &status, 0) < 0 && errno == EINTR) {
    }
  }
  kill_leftovers();
  record_exit(plan, status);
  _exit(0);
}

constexpr std::string_view kPlanVersion = "boreas-supervise-plan 1\n";

void put(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
  out += ',';
}

void put_list(std::string& out, const std::vector<std::string>& items) {
  put(out, std::to_string(items.size()));
  for (const auto& s : items) {
    put(out, s);
  }
}

// Reads netstrings off the front of the plan; the first error sticks and names the field.
class PlanReader {
 public:
  explicit PlanReader(std::string_view bytes) : rest_(bytes) {}
  std::string field(const char* what) {
    if (!error_.empty()) {
      return {};
    }
    size_t len = 0;
    const auto [end, ec] = std::from_chars(rest_.data(), rest_.data() + rest_.size(), len);
    const size_t digits = static_cast<size_t>(end - rest_.data());
    if (ec != std::errc() || digits == 0 || digits >= rest_.size() || rest_[digits] != ':' ||
        rest_.size() - digits - 1 < len + 1 || rest_[digits + 1 + len] != ',') {
      error_ = std::string("field `") + what + "`: expected LEN:BYTES, at byte " + std::to_string(offset());
      return {};
    }
    std::string value(rest_.substr(digits + 1, len));
    consumed_ += digits + 2 + len;
    rest_.remove_prefix(digits + 2 + len);
    return value;
  }
  uint64_t number(const char* what) {
    const std::string s = field(what);
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (error_.empty() && (ec != std::errc() || end != s.data() + s.size() || s.empty())) {
      error_ = std::string("field `") + what + "`: `" + s + "` is not a number";
    }
    return v;
  }
  std::vector<std::string> list(const char* what) {
    const uint64_t n = number(what);
    std::vector<std::string> out;
    for (uint64_t i = 0; i < n && error_.empty(); ++i) {
      out.push_back(field(what));
    }
    return out;
  }
  Status finish() const {
    if (error_.empty() && !rest_.empty()) {
      return invalid_argument("supervisor plan: " + std::to_string(rest_.size()) + " bytes after the last field");
    }
    return error_.empty() ? Status::ok() : invalid_argument("supervisor plan: " + error_);
  }

 private:
  size_t offset() const { return consumed_ + kPlanVersion.size(); }
  std::string_view rest_;
  size_t consumed_ = 0;
  std::string error_;
};

Result<std::string> read_plan_fd() {
  std::string bytes;
  char buf[65536];
  for (ssize_t n; (n = read(kPlanFd, buf, sizeof(buf))) != 0;) {
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return io_error("cannot read the plan on fd " + std::to_string(kPlanFd) + ": " + strerror(errno));
    }
    bytes.append(buf, static_cast<size_t>(n));
  }
  close(kPlanFd);
  return bytes;
}

}  // namespace

std::string encode_plan(const SpawnSpec& spec) {
  std::string out(kPlanVersion);
  put_list(out, spec.argv);
  put_list(out, spec.env);
  for (const std::string* s : {&spec.cwd, &spec.stdout_path, &spec.stderr_path, &spec.output_path,
                               &spec.error_path, &spec.exit_path, &spec.run_as.name, &spec.run_as.home}) {
    put(out, *s);
  }
  const RunAs& as = spec.run_as;
  std::vector<std::string> ids{as.switch_user ? "1" : "0", std::to_string(as.uid), std::to_string(as.gid)};
  for (gid_t g : as.groups) {
    ids.push_back(std::to_string(g));
  }
  put_list(out, ids);
  return out;
}

Result<SpawnSpec> decode_plan(std::string_view bytes) {
  if (bytes.substr(0, kPlanVersion.size()) != kPlanVersion) {
    return invalid_argument("supervisor plan: does not start with `boreas-supervise-plan 1`; the daemon and "
                            "this binary differ in version, or this is not a plan");
  }
  PlanReader r(bytes.substr(kPlanVersion.size()));
  SpawnSpec s;
  s.argv = r.list("argv");
  s.env = r.list("env");
  using Field = std::pair<std::string*, const char*>;
  for (auto [dest, what] : std::initializer_list<Field>{
           {&s.cwd, "cwd"}, {&s.stdout_path, "stdout"}, {&s.stderr_path, "stderr"}, {&s.output_path, "output"},
           {&s.error_path, "error"}, {&s.exit_path, "exit"}, {&s.run_as.name, "user"}, {&s.run_as.home, "home"}}) {
    *dest = r.field(what);
  }
  const std::vector<std::string> ids = r.list("ids");
  BOREAS_RETURN_IF_ERROR(r.finish());
  if (s.argv.empty() || ids.size() < 3 || (ids[0] != "0" && ids[0] != "1")) {
    return invalid_argument("supervisor plan: needs a command and `switch uid gid [groups]` (got " +
                            std::to_string(s.argv.size()) + " argv items, " + std::to_string(ids.size()) + " ids)");
  }
  std::vector<uint64_t> nums;
  for (size_t i = 1; i < ids.size(); ++i) {
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(ids[i].data(), ids[i].data() + ids[i].size(), v);
    if (ec != std::errc() || end != ids[i].data() + ids[i].size() || v > UINT32_MAX) {
      return invalid_argument("supervisor plan: id `" + ids[i] + "` is not a uid or gid");
    }
    nums.push_back(v);
  }
  s.run_as.switch_user = ids[0] == "1";
  s.run_as.uid = static_cast<uid_t>(nums[0]);
  s.run_as.gid = static_cast<gid_t>(nums[1]);
  s.run_as.groups.assign(nums.begin() + 2, nums.end());
  return s;
}

bool is_supervisor_call(int argc, char** argv) { return argc == 2 && argv[1] == kSupervisorArg; }

int supervisor_main() {
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1}) {
    signal(sig, SIG_IGN);  // the supervisor outlives its command's signals to record how it ended
  }
  auto bytes = read_plan_fd();
  auto spec = bytes.is_ok() ? decode_plan(*bytes) : Result<SpawnSpec>(bytes.status());
  if (!spec.is_ok()) {
    std::cerr << "boreas " << kSupervisorArg << ": " << spec.status().message()
              << "\n(`boreas serve` starts this for each job with its plan on fd " << kPlanFd
              << "; it is not run by hand)\n";
    return 2;
  }
  const ChildPlan plan{c_strings(spec->argv),
                       c_strings(spec->env),
                       spec->cwd.c_str(),
                       spec->stdout_path.c_str(),
                       spec->stderr_path.c_str(),
                       spec->output_path.c_str(),
                       spec->error_path.c_str(),
                       spec->exit_path.c_str(),
                       spec->exit_path + ".tmp",
                       &spec->run_as,
                       std::filesystem::path(spec->exit_path).parent_path().string()};
  supervise(plan, kGoFd);
}

}  // namespace boreas::server
