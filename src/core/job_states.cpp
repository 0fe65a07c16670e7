#include "core/job_states.h"

namespace boreas {

static_assert(static_cast<size_t>(JobState::kCancelled) + 1 == kJobStateNames.size(), "a JobState without a name");

std::optional<JobState> parse_job_state(std::string_view name) {
  for (const JobStateName& s : kJobStateNames) {
    if (s.name == name) {
      return s.state;
    }
  }
  return std::nullopt;
}

std::string job_state_names() {
  std::string out;
  for (const JobStateName& s : kJobStateNames) {
    out += (out.empty() ? "" : ", ") + std::string(s.name);
  }
  return out;
}

}  // namespace boreas
