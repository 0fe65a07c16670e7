#pragma once
// Output captured from a real Slurm (tests/fixtures/slurm/), read whole by the parser tests.

#include <fstream>
#include <sstream>
#include <string>

namespace boreas::slurm::testing {

inline std::string fixture(const std::string& name) {
  std::ifstream in(std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/slurm/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace boreas::slurm::testing
