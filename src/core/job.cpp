#include "core/job.h"

#include <string>

#include "core/job_states.h"

namespace boreas {

std::string_view to_string(JobKind kind) {
  switch (kind) {
    case JobKind::kTraining:
      return "training";
    case JobKind::kInference:
      return "inference";
    case JobKind::kBatch:
      return "batch";
  }
  return "unknown";
}

std::optional<JobKind> parse_job_kind(std::string_view s) {
  for (JobKind k : {JobKind::kTraining, JobKind::kInference, JobKind::kBatch}) {
    if (to_string(k) == s) {
      return k;
    }
  }
  return std::nullopt;
}

std::string_view to_string(JobState state) {
  for (const JobStateName& s : kJobStateNames) {
    if (s.state == state) {
      return s.name;
    }
  }
  return "unknown";
}

bool is_terminal(JobState state) {
  return state == JobState::kCompleted || state == JobState::kFailed || state == JobState::kCancelled;
}

bool can_transition(JobState from, JobState to) {
  using S = JobState;
  switch (from) {
    case S::kPending:
      return to == S::kRunning || to == S::kCancelled;
    case S::kRunning:
      return to == S::kCompleted || to == S::kFailed || to == S::kCancelled || to == S::kPreempted ||
             to == S::kPending;
    case S::kPreempted:
      return to == S::kRunning || to == S::kCancelled || to == S::kPending;
    case S::kCompleted:
    case S::kFailed:
    case S::kCancelled:
      return false;
  }
  return false;
}

Status check_transition(JobState from, JobState to) {
  if (can_transition(from, to)) {
    return Status::ok();
  }
  return conflict("illegal job transition " + std::string(to_string(from)) + " -> " +
                  std::string(to_string(to)));
}

}  // namespace boreas
