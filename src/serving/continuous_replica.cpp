#include <algorithm>
#include <cmath>

#include "serving/replica.h"

namespace boreas::serving {

namespace {

int64_t to_us(double s) { return std::max<int64_t>(1, static_cast<int64_t>(std::llround(s * 1e6))); }

}  // namespace

ContinuousReplica::ContinuousReplica(const CostModel& cost, const BatchingSpec& spec, int64_t kv_capacity_tokens,
                                     int64_t prefix_cache_tokens, int32_t block_tokens)
    : cost_(cost),
      spec_(spec),
      kv_capacity_(kv_capacity_tokens),
      cache_(prefix_cache_tokens, block_tokens),
      caching_(prefix_cache_tokens > 0 && block_tokens > 0) {}

void ContinuousReplica::enqueue(uint32_t req, int64_t /*now_us*/) { waiting_.push_back(req); }

int64_t ContinuousReplica::poll(int64_t now_us, Recorder& rec) {
  if (iteration_end_ != kIdle && now_us < iteration_end_) {
    return iteration_end_;
  }
  if (iteration_end_ != kIdle) {
    finish_iteration(iteration_end_, rec);
  }
  const int64_t duration = start_iteration(rec);
  iteration_end_ = duration == 0 ? kIdle : now_us + duration;
  return iteration_end_;
}

// Moves waiting requests into the batch while a slot is free and their KV fits (FIFO: the head
// blocks the rest, so no request is passed over forever).
void ContinuousReplica::admit(Recorder& rec) {
  while (!waiting_.empty() && static_cast<int32_t>(running_.size()) < spec_.max_batch) {
    const Request& r = rec.trace.requests[waiting_.front()];
    const int64_t need = int64_t{r.input_tokens} + r.output_tokens;
    if (kv_used_ + need > kv_capacity_) {
      return;
    }
    int64_t cached = 0;
    if (caching_) {
      const auto blocks = rec.trace.blocks_of(r);
      cached = hit_tokens(cache_.access(blocks), blocks.size(), r.input_tokens, rec.trace.block_tokens);
    }
    rec.prefix.hit_tokens += cached;
    rec.prefix.prompt_tokens += r.input_tokens;
    Seq s;
    s.req = waiting_.front();
    // A fully cached prompt still computes its last token to produce the first output token.
    s.prefill_left = static_cast<int32_t>(std::max<int64_t>(1, r.input_tokens - cached));
    s.prefill_done = r.input_tokens - s.prefill_left;
    s.kv_tokens = need;
    kv_used_ += need;
    running_.push_back(s);
    waiting_.pop_front();
  }
}

// Plans the next iteration (decodes first, then prompt chunks within the token budget) and
// returns its duration in microseconds; 0 when there is nothing to do.
int64_t ContinuousReplica::start_iteration(Recorder& rec) {
  admit(rec);
  int64_t budget = spec_.token_budget;
  IterationWork w;
  for (auto& s : running_) {
    s.planned = 0;
    if (s.prefill_left == 0 && budget > 0) {
      s.planned = 1;
      --budget;
      ++w.decode_tokens;
      w.kv_tokens_read += rec.trace.requests[s.req].input_tokens + s.generated;
    }
  }
  for (auto& s : running_) {
    if (s.prefill_left > 0 && budget > 0) {
      s.planned = static_cast<int32_t>(std::min<int64_t>(s.prefill_left, budget));
      budget -= s.planned;
      w.prefill_tokens += s.planned;
      w.prefill_attention_pairs += prefill_pairs(s.prefill_done, s.planned);
      w.kv_tokens_read += s.prefill_done;
    }
  }
  if (w.prefill_tokens + w.decode_tokens == 0) {
    return 0;
  }
  const double seconds = cost_.iteration_s(w);
  busy_s_ += seconds;
  return to_us(seconds);
}

// Applies a sequence's planned tokens; returns true when the request is complete.
bool ContinuousReplica::advance(Seq& s, int64_t now_us, Recorder& rec) {
  if (s.planned == 0) {
    return false;
  }
  if (s.prefill_left > 0) {
    s.prefill_left -= s.planned;
    s.prefill_done += s.planned;
    if (s.prefill_left > 0) {
      return false;
    }
    rec.first_token(s.req, now_us);
  } else {
    rec.token_gap(now_us - s.last_token_us);
  }
  s.last_token_us = now_us;
  ++s.generated;
  return s.generated >= rec.trace.requests[s.req].output_tokens;
}

void ContinuousReplica::finish_iteration(int64_t now_us, Recorder& rec) {
  auto done = [&](Seq& s) {
    if (!advance(s, now_us, rec)) {
      return false;
    }
    rec.done(s.req, now_us);
    kv_used_ -= s.kv_tokens;
    return true;
  };
  running_.erase(std::remove_if(running_.begin(), running_.end(), done), running_.end());
}

}  // namespace boreas::serving
