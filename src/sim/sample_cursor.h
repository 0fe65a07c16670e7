#pragma once
// The first sample at or after a time, as std::lower_bound over the samples' times finds it, for
// times that mostly come in order (the runs' starts: the engine records runs as time goes): a
// cursor walks forward from the last answer, and a time at or before the sample behind the cursor
// takes the binary search. Any order of times gets lower_bound's answer.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "sim/engine.h"

namespace boreas::sim {

class SampleCursor {
 public:
  explicit SampleCursor(const std::vector<Sample>& samples) : samples_(samples) {}

  // Index of the first sample whose time is not before `at` (samples.size() when none is).
  size_t first_at_or_after(Time at) {
    if (cursor_ > 0 && !(samples_[cursor_ - 1].time < at)) {
      cursor_ = static_cast<size_t>(std::lower_bound(samples_.begin(), samples_.end(), at, before) - samples_.begin());
      return cursor_;
    }
    // Every sample before the cursor is before `at` (times ascend): the answer is at or past it.
    while (cursor_ < samples_.size() && samples_[cursor_].time < at) {
      ++cursor_;
    }
    return cursor_;
  }

 private:
  static bool before(const Sample& sample, Time t) { return sample.time < t; }

  const std::vector<Sample>& samples_;
  size_t cursor_ = 0;
};

}  // namespace boreas::sim
