// The ReasonBook (policy/reason_book.h) against the plans' rules (policy/plan.h): a shared place
// takes the set's latest free GPUs, and `lowered` takes jobs ahead from the members of its queue in
// the current span only.

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "policy/plan.h"
#include "policy/reason_book.h"

namespace boreas {
namespace {

policy::Reasons shared_round(bool new_span, uint32_t free, std::vector<policy::SharedLowered> lowered,
                             std::vector<policy::SharedPlace> placed) {
  policy::Reasons r;
  r.shared.emplace();
  r.shared->new_span = new_span;
  r.shared->free = free;
  r.shared->largest_block = free;
  r.shared->lowered = std::move(lowered);
  r.shared->placed = std::move(placed);
  return r;
}

TEST(ReasonBook, LoweredTakesJobsAheadFromTheMembersOfItsQueue) {
  policy::ReasonBook book;
  policy::Reasons first = shared_round(true, 4, {}, {{JobId(0), 0, 8, 3}, {JobId(1), 0, 8, 5}, {JobId(2), 1, 8, 2}});
  first.queues = {"a", "b"};
  book.apply(first);
  EXPECT_EQ(book.reason(JobId(0)).ahead, 3u);
  book.apply(shared_round(false, 2, {{0, 2}}, {{JobId(3), 0, 8, 4}}));  // a member placed after the lowering
  EXPECT_EQ(book.reason(JobId(0)).ahead, 1u);
  EXPECT_EQ(book.reason(JobId(1)).ahead, 3u);
  EXPECT_EQ(book.reason(JobId(2)).ahead, 2u);  // another queue
  EXPECT_EQ(book.reason(JobId(3)).ahead, 4u);
  EXPECT_EQ(book.reason(JobId(3)).have, 2u);  // the set's latest free GPUs
  book.apply(shared_round(false, 2, {{0, 1}}, {}));
  EXPECT_EQ(book.kind(JobId(0)), policy::PendingKind::kNoFit);  // none ahead now
  EXPECT_EQ(book.reason(JobId(0)).have, 2u);                    // a no-fit's largest free block
  EXPECT_EQ(book.reason(JobId(3)).ahead, 3u);
}

TEST(ReasonBook, ANewSpanKeepsTheEarlierMembersPlaces) {
  policy::ReasonBook book;
  policy::Reasons first = shared_round(true, 4, {{0, 1}}, {{JobId(0), 0, 8, 3}});
  first.queues = {"a"};
  book.apply(first);
  book.apply(shared_round(true, 1, {{0, 2}}, {{JobId(1), 0, 8, 6}}));
  EXPECT_EQ(book.reason(JobId(0)).ahead, 3u);  // its span's lowerings only
  EXPECT_EQ(book.reason(JobId(0)).have, 4u);
  EXPECT_EQ(book.reason(JobId(1)).ahead, 6u);
  book.apply(shared_round(false, 1, {{0, 5}}, {}));
  EXPECT_EQ(book.reason(JobId(0)).ahead, 3u);
  EXPECT_EQ(book.reason(JobId(1)).ahead, 1u);
}

policy::PendingReason exact_reason(std::mt19937_64& rng) {
  policy::PendingReason r;
  r.kind = rng() % 2 ? policy::PendingKind::kQuotaExceeded : policy::PendingKind::kPreemptionCap;
  r.queue = "q" + std::to_string(rng() % 5);
  r.need = rng() % 64;
  r.have = rng() % 64;
  return r;
}

// Property: exact reasons kept in slots (only jobs that had one) read back as a plain map by job
// id would: the latest exact reason while the job's latest reason is exact, and a job that turns
// to a no-fit and back reads its new exact reason, never another job's. With and without
// size_for (the engine's call), over job ids met in any order.
TEST(ReasonBookProperty, ExactReasonsReadBackAsTheLatestPerJob) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    policy::ReasonBook book;
    const uint32_t jobs = 1 + static_cast<uint32_t>(rng() % 40);
    if (trial % 2 == 0) {
      book.size_for(jobs);
    }
    std::map<uint32_t, policy::PendingReason> latest;  // the plain model: each job's latest reason
    for (int round = 0; round < 30; ++round) {
      policy::Reasons r;
      const int n = static_cast<int>(rng() % 6);
      for (int i = 0; i < n; ++i) {
        const JobId job(static_cast<uint32_t>(rng() % jobs));
        if (rng() % 3 == 0) {
          const policy::NoFitReason nf{policy::PendingKind::kNoFit, 0, 4, 0, 2, 3};
          r.jobs.push_back({job, nf});
          latest[job.value()] = policy::expand(nf, "q0");
        } else {
          r.jobs.push_back({job, policy::NoFitReason{}});
          r.exact.push_back(exact_reason(rng));
          latest[job.value()] = r.exact.back();
        }
      }
      r.queues = round == 0 ? std::vector<std::string>{"q0"} : std::vector<std::string>{};
      book.apply(r);
      for (uint32_t j = 0; j < jobs; ++j) {
        const auto it = latest.find(j);
        const policy::PendingReason want = it == latest.end() ? policy::PendingReason{} : it->second;
        ASSERT_EQ(policy::describe(book.reason(JobId(j))), policy::describe(want)) << "job " << j;
        ASSERT_EQ(book.kind(JobId(j)), want.kind) << "job " << j;
      }
    }
  }
}

}  // namespace
}  // namespace boreas
