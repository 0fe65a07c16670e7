// Property: with_job_context (state/job_name.h; ClusterState's transition checks) gives the same
// status as formatting the context every time, check_transition(...).with_context("job N: "), for
// every pair of job states and random job ids: same code, ok exactly when legal, and when it
// failed the same message (an ok status is dropped by BOREAS_RETURN_IF_ERROR, message unread).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "core/job.h"
#include "state/job_name.h"

namespace boreas::state {
namespace {

TEST(JobContextProperty, LazyContextEqualsTheEagerOneForEveryTransition) {
  std::mt19937_64 rng(31);
  for (int round = 0; round < 200; ++round) {
    const JobId job(static_cast<uint32_t>(rng() % 2000000));
    for (uint8_t from = 0; from <= static_cast<uint8_t>(JobState::kCancelled); ++from) {
      for (uint8_t to = 0; to <= static_cast<uint8_t>(JobState::kCancelled); ++to) {
        const JobState a = static_cast<JobState>(from);
        const JobState b = static_cast<JobState>(to);
        const Status eager = check_transition(a, b).with_context(job_name(job) + ": ");
        const Status lazy = with_job_context(job, check_transition(a, b));
        ASSERT_EQ(lazy.code(), eager.code()) << to_string(a) << " -> " << to_string(b);
        if (!eager.is_ok()) {
          ASSERT_EQ(lazy.message(), eager.message()) << to_string(a) << " -> " << to_string(b);
        }
        ASSERT_EQ(lazy.is_ok(), can_transition(a, b));
      }
    }
  }
}

}  // namespace
}  // namespace boreas::state
