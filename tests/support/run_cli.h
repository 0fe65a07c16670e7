#pragma once
// Runs the built `boreas` binary for end-to-end CLI tests: exit code and stdout+stderr together.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace boreas::testing {

struct CliOutcome {
  int rc = -1;
  std::string out;  // stdout and stderr together
};

// `boreas ARGS` from `cwd` (empty: the test's own directory).
inline CliOutcome run_boreas(const std::string& args, const std::string& cwd = "") {
  const std::string cd = cwd.empty() ? "" : "cd " + cwd + " && ";
  const std::string cmd = cd + std::string(BOREAS_BINARY_DIR) + "/boreas " + args + " 2>&1";
  CliOutcome run;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) {
    return run;
  }
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) {
    run.out.append(buf.data(), n);
  }
  const int status = pclose(pipe);
  run.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace boreas::testing
