#pragma once
// Helpers shared by the server's tests: a temporary directory removed on scope exit.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace boreas::server {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "boreas-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data()) != nullptr ? tmpl : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The whole of a file ("" when it cannot be read): logs, /proc files, cgroup files.
inline std::string read_whole_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs `promtool check metrics` on `text`: its exit status and output, or nullopt when promtool
// is absent (Debian package `prometheus`, in scripts/install-deps.sh).
struct PromtoolResult {
  int status = 0;
  std::string output;
};
inline std::optional<PromtoolResult> promtool_check(const std::string& text) {
  const char* promtool = "/usr/bin/promtool";
  if (access(promtool, X_OK) != 0) {
    return std::nullopt;
  }
  TempDir dir;
  const std::string path = dir.path() + "/metrics.txt";
  std::ofstream(path) << text;
  const std::string cmd = std::string(promtool) + " check metrics < " + path + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    return PromtoolResult{-1, "cannot run promtool"};
  }
  PromtoolResult r;
  char buf[256];
  while (fgets(buf, sizeof(buf), p) != nullptr) {
    r.output += buf;
  }
  r.status = pclose(p);
  return r;
}

}  // namespace boreas::server
