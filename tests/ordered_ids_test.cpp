// Property: policy::OrderedIds (the quota audit's pending gangs per queue and size) answers as a
// std::set of the same ids: membership, size, the first id and the next id after any point, through
// random inserts and erases over ids clustered and spread (words and marks emptied and refilled)
// and ids past the capacity (growth).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <set>

#include "policy/ordered_ids.h"

namespace boreas {
namespace {

std::optional<uint32_t> next_in(const std::set<uint32_t>& s, uint64_t from) {
  const auto it = s.lower_bound(static_cast<uint32_t>(std::min<uint64_t>(from, UINT32_MAX)));
  return it == s.end() || from > UINT32_MAX ? std::nullopt : std::optional(*it);
}

void expect_same(const policy::OrderedIds& ids, const std::set<uint32_t>& reference, uint32_t span,
                 std::mt19937& rng) {
  ASSERT_EQ(ids.size(), reference.size());
  ASSERT_EQ(ids.empty(), reference.empty());
  ASSERT_EQ(ids.first(), next_in(reference, 0));
  for (int probe = 0; probe < 40; ++probe) {
    const uint32_t at = static_cast<uint32_t>(rng() % (span + 200));
    ASSERT_EQ(ids.contains(at), reference.count(at) == 1) << at;
    ASSERT_EQ(ids.next_after(at), next_in(reference, uint64_t{at} + 1)) << at;
  }
  for (uint32_t id : reference) {  // walking the set id by id visits the reference in order
    ASSERT_EQ(ids.next_after(id), next_in(reference, uint64_t{id} + 1)) << id;
  }
}

TEST(OrderedIdsProperty, AnswersAsAStdSetOnRandomInsertsAndErases) {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 200; ++trial) {
    // spans from one word to three levels of words; a start capacity below the span forces growth
    const uint32_t span = std::uniform_int_distribution<uint32_t>(1, trial % 4 == 0 ? 300000 : 5000)(rng);
    policy::OrderedIds ids(trial % 3 == 0 ? 0 : std::uniform_int_distribution<uint32_t>(1, span)(rng));
    std::set<uint32_t> reference;
    const uint32_t cluster_at = static_cast<uint32_t>(rng() % span);
    for (int step = 0; step < 600; ++step) {
      const bool clustered = rng() % 2 == 0;  // ids in one or two words: words emptied and refilled
      const uint32_t id = clustered ? std::min(span - 1, cluster_at + static_cast<uint32_t>(rng() % 100))
                                    : static_cast<uint32_t>(rng() % span);
      if (rng() % 5 < 3) {
        ids.insert(id);
        reference.insert(id);
      } else {
        const uint32_t gone = rng() % 2 == 0 ? id : next_in(reference, id).value_or(id);  // mostly present
        ids.erase(gone);
        reference.erase(gone);
      }
      if (step % 50 == 0 || step == 599) {
        expect_same(ids, reference, span, rng);
      }
    }
    while (!reference.empty()) {  // erase everything: every mark must clear
      ids.erase(*reference.begin());
      reference.erase(reference.begin());
    }
    expect_same(ids, reference, span, rng);
  }
}

}  // namespace
}  // namespace boreas
