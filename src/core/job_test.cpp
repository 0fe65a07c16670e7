#include "core/job.h"

#include <gtest/gtest.h>

#include "core/job_states.h"

namespace boreas {
namespace {

TEST(JobState, NamesRoundTripAndNothingElseParses) {
  for (const JobStateName& s : kJobStateNames) {
    EXPECT_EQ(to_string(s.state), s.name);
    EXPECT_EQ(parse_job_state(s.name), s.state);
  }
  EXPECT_EQ(parse_job_state("cancelled"), JobState::kCancelled);
  for (const char* bad : {"", "Running", "runing", "canceled", "pending ", "ended"}) {
    EXPECT_FALSE(parse_job_state(bad).has_value()) << bad;
  }
  EXPECT_EQ(job_state_names(), "pending, running, preempted, completed, failed, cancelled");
  // Active states first: the CLI's default listing takes the table up to the first ended state.
  EXPECT_FALSE(is_terminal(kJobStateNames[2].state));
  EXPECT_TRUE(is_terminal(kJobStateNames[3].state));
}

TEST(JobState, LegalTransitions) {
  EXPECT_TRUE(can_transition(JobState::kPending, JobState::kRunning));
  EXPECT_TRUE(can_transition(JobState::kRunning, JobState::kPreempted));
  EXPECT_TRUE(can_transition(JobState::kPreempted, JobState::kRunning));
  EXPECT_TRUE(can_transition(JobState::kRunning, JobState::kPending));  // requeue after failure
  EXPECT_TRUE(can_transition(JobState::kRunning, JobState::kCompleted));
}

TEST(JobState, TerminalStatesAreFinal) {
  for (JobState from : {JobState::kCompleted, JobState::kFailed, JobState::kCancelled}) {
    EXPECT_TRUE(is_terminal(from));
    for (JobState to : {JobState::kPending, JobState::kRunning, JobState::kCompleted}) {
      EXPECT_FALSE(can_transition(from, to));
    }
  }
}

TEST(JobState, IllegalTransitionExplainsItself) {
  const Status s = check_transition(JobState::kPending, JobState::kCompleted);
  EXPECT_EQ(s.code(), ErrorCode::kConflict);
  EXPECT_EQ(s.message(), "illegal job transition pending -> completed");
}

TEST(JobKind, ParsesItsOwnNames) {
  for (JobKind k : {JobKind::kTraining, JobKind::kInference, JobKind::kBatch}) {
    EXPECT_EQ(parse_job_kind(to_string(k)), k);
  }
  EXPECT_FALSE(parse_job_kind("serving").has_value());
}

TEST(JobSpec, StaysCompact) {
  // Issue 3: at most 200 bytes per job held; the spec itself must leave room for indexes.
  EXPECT_LE(sizeof(JobSpec), 112u);
}

}  // namespace
}  // namespace boreas
