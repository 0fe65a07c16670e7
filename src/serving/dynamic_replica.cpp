#include <algorithm>
#include <cmath>

#include "serving/replica.h"

namespace boreas::serving {

void DynamicReplica::enqueue(uint32_t req, int64_t now_us) { queue_.push_back({req, now_us}); }

int64_t DynamicReplica::poll(int64_t now_us, Recorder& rec) {
  if (batch_end_ != kIdle && now_us < batch_end_) {
    return batch_end_;
  }
  if (batch_end_ != kIdle) {
    for (const uint32_t req : batch_) {
      rec.first_token(req, batch_end_);
      rec.done(req, batch_end_);
    }
    batch_.clear();
    batch_end_ = kIdle;
  }
  if (queue_.empty()) {
    return kIdle;
  }
  const auto window_us = static_cast<int64_t>(std::llround(spec_.window_s * 1e6));
  const bool full = static_cast<int32_t>(queue_.size()) >= spec_.max_batch;
  const int64_t dispatch = full ? now_us : std::max(now_us, queue_.front().arrival_us + window_us);
  if (dispatch > now_us) {
    return dispatch;
  }
  const size_t n = std::min<size_t>(queue_.size(), static_cast<size_t>(spec_.max_batch));
  for (size_t i = 0; i < n; ++i) {
    batch_.push_back(queue_.front().req);
    queue_.pop_front();
  }
  const double seconds = spec_.batch_fixed_s + spec_.batch_per_item_s * static_cast<double>(n);
  busy_s_ += seconds;
  batch_end_ = now_us + std::max<int64_t>(1, static_cast<int64_t>(std::llround(seconds * 1e6)));
  return batch_end_;
}

}  // namespace boreas::serving
