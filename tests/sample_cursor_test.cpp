// Property: SampleCursor (sim/sample_cursor.h; timeseries.csv's queue columns, output15) answers
// every time as std::lower_bound over the samples' times does: random ascending sample times (with
// ties or without), queries mostly in order as the runs' starts come, with jumps back, times equal
// to a sample's, before the first and after the last.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/sample_cursor.h"

namespace boreas::sim {
namespace {

size_t searched(const std::vector<Sample>& samples, Time at) {
  return static_cast<size_t>(
      std::lower_bound(samples.begin(), samples.end(), at, [](const Sample& s, Time t) { return s.time < t; }) -
      samples.begin());
}

TEST(SampleCursorProperty, AnswersAsLowerBound) {
  std::mt19937_64 rng(15);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<Sample> samples(rng() % 60);
    int64_t t = static_cast<int64_t>(rng() % 10);
    const bool ties = rng() % 3 == 0;
    for (Sample& s : samples) {
      t += ties ? static_cast<int64_t>(rng() % 2) : 1 + static_cast<int64_t>(rng() % 5);
      s.time = Time::from_micros(t);
    }
    SampleCursor cursor(samples);
    int64_t at = 0;
    for (int query = 0; query < 200; ++query) {
      const uint64_t move = rng() % 10;
      at = move == 0 ? static_cast<int64_t>(rng() % static_cast<uint64_t>(t + 20)) - 5  // anywhere, back too
           : move < 4 ? at                                                              // the same time again
                      : at + static_cast<int64_t>(rng() % 4);
      ASSERT_EQ(cursor.first_at_or_after(Time::from_micros(at)), searched(samples, Time::from_micros(at)))
          << "trial " << trial << ", query " << query << ", at " << at;
    }
  }
}

}  // namespace
}  // namespace boreas::sim
