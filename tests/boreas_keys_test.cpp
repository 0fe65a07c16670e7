// Property: policy::RankKeys (a boreas ranking group's sorted keys with room before its head)
// reads as a std::set of the same keys through random drops and merges: drops at the head, at the
// tail and spread (with keys it does not hold and repeated keys), merges at the head, at the tail
// and spread (with repeated keys and keys it holds already); each drop widens [lo, hi] to exactly
// the keys it removed. Both sides move: the room before the head grows and is filled again.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "policy/boreas_keys.h"

namespace boreas {
namespace {

using policy::RankKey;

void expect_same(const policy::RankKeys& keys, const std::set<RankKey>& reference) {
  ASSERT_EQ(keys.size(), reference.size());
  ASSERT_EQ(keys.empty(), reference.empty());
  ASSERT_TRUE(std::equal(keys.begin(), keys.end(), reference.begin(), reference.end()));
  size_t i = 0;
  for (const RankKey& k : reference) {
    ASSERT_EQ(keys[i++], k);
  }
  if (!reference.empty()) {
    ASSERT_EQ(keys.front(), *reference.begin());
  }
}

// Keys near the head, near the tail or anywhere of `reference`, and some it does not hold.
std::vector<RankKey> pick(const std::set<RankKey>& reference, std::mt19937& rng, bool held_mostly) {
  const std::vector<RankKey> all(reference.begin(), reference.end());
  std::vector<RankKey> out;
  const int where = static_cast<int>(rng() % 3);  // 0 head, 1 tail, 2 spread
  const size_t n = 1 + rng() % 6;
  for (size_t k = 0; k < n; ++k) {
    if (held_mostly && !all.empty() && rng() % 5 != 0) {
      const size_t span = std::min<size_t>(all.size(), 4);
      const size_t at = where == 0 ? rng() % span : where == 1 ? all.size() - 1 - rng() % span : rng() % all.size();
      out.push_back(all[at]);
    } else {
      const int64_t attained = where == 0 ? -1 - static_cast<int64_t>(rng() % 3)
                               : where == 1 ? 1000 + static_cast<int64_t>(rng() % 3)
                                            : static_cast<int64_t>(rng() % 1000);
      out.emplace_back(attained, static_cast<uint32_t>(rng() % 50));
    }
  }
  if (rng() % 4 == 0) {
    out.push_back(out.front());  // a key twice
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(RankKeysProperty, ReadsAsAStdSetThroughRandomDropsAndMerges) {
  std::mt19937 rng(14);
  size_t most_room = 0;
  size_t room_filled = 0;
  for (int trial = 0; trial < 300; ++trial) {
    policy::RankKeys keys;
    std::set<RankKey> reference;
    for (int step = 0; step < 200; ++step) {
      if (rng() % 2 == 0) {
        std::vector<RankKey> gone = pick(reference, rng, true);
        RankKey lo{INT64_MAX, UINT32_MAX};
        RankKey hi{INT64_MIN, 0};
        keys.drop(gone, lo, hi);
        RankKey want_lo{INT64_MAX, UINT32_MAX};
        RankKey want_hi{INT64_MIN, 0};
        for (const RankKey& k : gone) {
          if (reference.erase(k) == 1) {
            want_lo = std::min(want_lo, k);
            want_hi = std::max(want_hi, k);
          }
        }
        ASSERT_EQ(lo, want_lo);
        ASSERT_EQ(hi, want_hi);
      } else {
        std::vector<RankKey> added = pick(reference, rng, rng() % 4 == 0);
        const size_t room = keys.room();
        reference.insert(added.begin(), added.end());
        keys.merge(added);
        ASSERT_TRUE(added.empty());
        room_filled += keys.room() < room ? 1 : 0;
      }
      most_room = std::max(most_room, keys.room());
      expect_same(keys, reference);
      if (step == 100 && trial % 10 == 0) {
        keys.clear();
        reference.clear();
      }
    }
  }
  EXPECT_GT(most_room, 0u);   // drops moved the head's side
  EXPECT_GT(room_filled, 0u);  // merges filled the room before the head
}

}  // namespace
}  // namespace boreas
