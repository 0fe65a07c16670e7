// The ReasonBook (policy/reason_book.h) against the plans' rules (policy/plan.h): a shared place
// takes the set's latest free GPUs, and `lowered` takes jobs ahead from the members of its queue in
// the current span only.

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace boreas
