#pragma once
// Helpers for the report's unit tests only: fixture paths and scratch folders.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "report/run_data.h"

namespace boreas::report::testing {

inline std::string fixture(const std::string& rel) {
  return std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/runs/" + rel;
}

// Every policy of a fixture run folder, read as `boreas report` reads it.
inline std::vector<PolicyRun> fixture_runs(const std::string& rel) {
  auto runs = read_run_dirs({fixture(rel)});
  EXPECT_TRUE(runs.is_ok()) << runs.status().message();
  return runs.is_ok() ? *runs : std::vector<PolicyRun>{};
}

// A fresh folder under the build's test output, named after the running test.
inline std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto dir = std::filesystem::path(BOREAS_BINARY_DIR) / "test-output" / "report" /
                   (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace boreas::report::testing
