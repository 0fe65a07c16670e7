// Property: OrderedIds (the quota audit's pending gangs per queue and size) answers as a
// std::set of the same ids: membership, size, the first id and the next id after any point, through
// random inserts and erases over ids clustered and spread (words and marks emptied and refilled)
// and ids past the capacity (growth). OrderedIdSet (ClusterState's pending jobs) walks in id order
// as std::set<JobId> does, also when ids ahead of the walk are erased or inserted during it.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "core/ids.h"

#include "core/ordered_ids.h"

namespace boreas {
namespace {

std::optional<uint32_t> next_in(const std::set<uint32_t>& s, uint64_t from) {
  const auto it = s.lower_bound(static_cast<uint32_t>(std::min<uint64_t>(from, UINT32_MAX)));
  return it == s.end() || from > UINT32_MAX ? std::nullopt : std::optional(*it);
}

void expect_same(const OrderedIds& ids, const std::set<uint32_t>& reference, uint32_t span,
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
    OrderedIds ids(trial % 3 == 0 ? 0 : std::uniform_int_distribution<uint32_t>(1, span)(rng));
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

void expect_same_walk(const OrderedIdSet<JobId>& ids, const std::set<JobId>& reference) {
  ASSERT_EQ(ids.size(), reference.size());
  ASSERT_EQ(ids.empty(), reference.empty());
  const std::vector<JobId> walked(ids.begin(), ids.end());
  ASSERT_EQ(walked, std::vector<JobId>(reference.begin(), reference.end()));
  if (!reference.empty()) {
    ASSERT_EQ(ids.begin()->value(), reference.begin()->value());
    ASSERT_EQ(*std::next(ids.begin(), static_cast<std::ptrdiff_t>(reference.size() - 1)),
              *reference.rbegin());
  }
}

TEST(OrderedIdsProperty, TypedSetWalksAsAStdSetOnRandomInsertsAndErases) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 200; ++trial) {
    const uint32_t span = std::uniform_int_distribution<uint32_t>(1, trial % 4 == 0 ? 300000 : 3000)(rng);
    OrderedIdSet<JobId> ids(trial % 3 == 0 ? 0 : std::uniform_int_distribution<uint32_t>(1, span)(rng));
    std::set<JobId> reference;
    for (int step = 0; step < 400; ++step) {
      const JobId id(static_cast<uint32_t>(rng() % span));
      ASSERT_EQ(ids.count(id), reference.count(id));
      ASSERT_EQ(ids.contains(id), reference.count(id) == 1);
      if (rng() % 5 < 3) {
        ids.insert(id);
        reference.insert(id);
      } else {
        ASSERT_EQ(ids.erase(id), reference.erase(id)) << id.value();
      }
      if (step % 40 == 0) {
        expect_same_walk(ids, reference);
      }
    }
    expect_same_walk(ids, reference);
    // A walk that erases some ids ahead of it and inserts others meets what a std::set walk meets.
    std::vector<JobId> met, met_reference;
    const uint32_t salt = static_cast<uint32_t>(rng());
    const auto step_ahead = [&](JobId at, auto& set) {
      const uint32_t ahead = at.value() + 1 + (at.value() ^ salt) % 97;
      if (ahead < span) {
        (at.value() + salt) % 3 == 0 ? void(set.insert(JobId(ahead))) : void(set.erase(JobId(ahead)));
      }
    };
    for (JobId j : ids) {
      met.push_back(j);
      step_ahead(j, ids);
    }
    for (JobId j : reference) {
      met_reference.push_back(j);
      step_ahead(j, reference);
    }
    ASSERT_EQ(met, met_reference);
    expect_same_walk(ids, reference);
  }
}

}  // namespace
}  // namespace boreas
