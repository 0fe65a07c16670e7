#include "slurm/command.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <map>

extern char** environ;

namespace boreas::slurm {
namespace {

// The caller's environment with `extra` laid over it (same names replaced).
std::vector<std::string> merged_env(const std::vector<std::string>& extra) {
  std::map<std::string, std::string> vars;
  auto add = [&vars](const std::string& entry) {
    const size_t eq = entry.find('=');
    vars[entry.substr(0, eq)] = entry;
  };
  for (char** e = environ; *e != nullptr; ++e) {
    add(*e);
  }
  for (const auto& e : extra) {
    add(e);
  }
  std::vector<std::string> out;
  for (auto& [name, entry] : vars) {
    out.push_back(std::move(entry));
  }
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (auto& s : strings) {
    p.push_back(s.data());
  }
  p.push_back(nullptr);
  return p;
}

// Reads both pipes until each reaches end of file, so neither can fill up and stall the child.
void drain(int out_fd, int err_fd, CommandOutput* result) {
  std::array<pollfd, 2> fds{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  std::array<std::string*, 2> sinks{&result->out, &result->err};
  int open = 2;
  char buf[4096];
  while (open > 0) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) {
        continue;
      }
      return;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) {
        continue;
      }
      const ssize_t n = read(fds[i].fd, buf, sizeof(buf));
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
}

int wait_exit(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return -1;
    }
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::string quote_command(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    s += (s.empty() ? "" : " ") + a;
  }
  return "'" + s + "'";
}

Result<CommandOutput> run_command(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  int out_pipe[2];
  int err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    return io_error("cannot run " + quote_command(argv) + ": pipe: " + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> args = argv;
  std::vector<std::string> envs = merged_env(env);
  pid_t pid = 0;
  const int rc =
      posix_spawnp(&pid, args[0].c_str(), &actions, nullptr, pointers(args).data(), pointers(envs).data());
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  CommandOutput result;
  if (rc == 0) {
    drain(out_pipe[0], err_pipe[0], &result);
    result.exit_code = wait_exit(pid);
  }
  close(out_pipe[0]);
  close(err_pipe[0]);
  if (rc != 0) {
    return io_error("cannot run " + quote_command(argv) + ": " + std::strerror(rc) +
                    "; install Slurm's client tools (slurm-client) or put them on PATH");
  }
  return result;
}

}  // namespace boreas::slurm
