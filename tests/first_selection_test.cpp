// Property: policy::move_first_to_front (key_seconds' partial selection of the skipped jobs with the
// highest bounds, in rounds of growing size) reads, round after round, the same sequence as a full
// sort of the entries, and keeps every entry (a permutation). Random rankings with many ties in
// the first field (as gittins' bounds have), in random, ascending and descending order, with round
// sizes 1, 4 and the scheduler's ×4 growth, including a last round larger than what is left.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "policy/ranked_job.h"

namespace boreas {
namespace {

using policy::RankedJob;
using policy::SortKey;

std::vector<RankedJob> random_ranking(std::mt19937& rng, size_t n, int order) {
  std::uniform_int_distribution<int> floors(0, 6);  // few distinct first fields: ties are common
  std::uniform_int_distribution<int64_t> small(0, 2);
  std::vector<RankedJob> out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(RankedJob{SortKey{-static_cast<double>(floors(rng)), small(rng), small(rng)},
                            JobId(static_cast<uint32_t>(i)), 1});
  }
  if (order == 1) {
    std::sort(out.begin(), out.end());
  } else if (order == 2) {
    std::sort(out.begin(), out.end(), [](const RankedJob& a, const RankedJob& b) { return b < a; });
  }
  return out;
}

// The entries in the order the rounds read them: rounds of `first_round`, then `growth` times as many.
std::vector<RankedJob> read_in_rounds(std::vector<RankedJob> v, size_t first_round, size_t growth) {
  auto higher = [](const RankedJob& a, const RankedJob& b) { return b < a; };
  const std::span<RankedJob> all(v);
  size_t round = first_round;
  for (size_t selected = 0; selected < all.size(); round *= growth) {
    const size_t k = std::min(round, all.size() - selected);
    policy::move_first_to_front(all.subspan(selected), k, higher);
    selected += k;
  }
  return v;
}

TEST(FirstSelectionProperty, RoundsReadAsAFullSortHighestFirst) {
  uint64_t checked = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    const size_t n = std::uniform_int_distribution<size_t>(0, 260)(rng);
    const int order = static_cast<int>(seed % 3);
    const std::vector<RankedJob> entries = random_ranking(rng, n, order);
    std::vector<RankedJob> sorted = entries;
    std::sort(sorted.begin(), sorted.end(), [](const RankedJob& a, const RankedJob& b) { return b < a; });
    for (const auto& [first_round, growth] : {std::pair<size_t, size_t>{1, 1}, {4, 4}, {3, 2}, {64, 4}}) {
      const std::vector<RankedJob> read = read_in_rounds(entries, first_round, growth);
      ASSERT_EQ(read.size(), sorted.size());
      for (size_t i = 0; i < read.size(); ++i) {
        ASSERT_EQ(read[i].job, sorted[i].job) << "seed " << seed << " round " << first_round << " at " << i;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100000u);
}

}  // namespace
}  // namespace boreas
