#pragma once
// JobState's names, spelled once: to_string(JobState) (core/job.h) reads this table, and the API,
// the store and the CLI parse and list job states through it.

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/job.h"

namespace boreas {

struct JobStateName {
  JobState state;
  std::string_view name;
};

// In lifecycle order: the active states first, then the ended ones (is_terminal).
inline constexpr std::array<JobStateName, 6> kJobStateNames = {{
    {JobState::kPending, "pending"},
    {JobState::kRunning, "running"},
    {JobState::kPreempted, "preempted"},
    {JobState::kCompleted, "completed"},
    {JobState::kFailed, "failed"},
    {JobState::kCancelled, "cancelled"},
}};

// The state named NAME (exactly, lowercase); nullopt for any other text.
std::optional<JobState> parse_job_state(std::string_view name);
// "pending, running, preempted, completed, failed, cancelled": for messages that list them.
std::string job_state_names();

}  // namespace boreas
