#include "server/jobs/output_path.h"

namespace boreas::server {

namespace {
constexpr size_t kMaxPattern = 4096;
}  // namespace

Status check_output_pattern(const std::string& field, const std::string& pattern) {
  const auto bad = [&](const std::string& why) {
    return invalid_argument("$." + field + ": " + why + "; give a file path, optionally with %j (job id), %x (job "
                            "name) or %% (sbatch's -o/-e patterns; others are not supported)");
  };
  if (pattern.size() > kMaxPattern) {
    return bad("longer than " + std::to_string(kMaxPattern) + " bytes");
  }
  if (pattern.find_first_of(std::string("\0\n\r", 3)) != std::string::npos) {
    return bad("contains a NUL or a line break");
  }
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      continue;
    }
    const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
    if (next != 'j' && next != 'x' && next != '%') {
      return bad(std::string("unsupported escape `%") + (next == '\0' ? "" : std::string(1, next)) + "`");
    }
    ++i;
  }
  return Status::ok();
}

std::string expand_output_pattern(const std::string& pattern, JobId job, const std::string& name) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    const char next = pattern[++i];
    out += next == 'j' ? std::to_string(job.value()) : next == 'x' ? name : std::string(1, next);
  }
  return out;
}

}  // namespace boreas::server
