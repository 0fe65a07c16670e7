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
  admit(rec);
  const int64_t duration = start_iteration();
  iteration_end_ = duration == 0 ? kIdle : now_us + duration;
  return iteration_end_;
}

// Moves waiting requests into the batch while a slot is free and their KV fits (FIFO: the head
// blocks the rest, so no request is passed over forever).
void ContinuousReplica::admit(Recorder& rec) {
  while (!waiting_.empty() && static_cast<int32_t>(prefilling_.size() + decoding_.size()) < spec_.max_batch) {
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
    Prefill p;
    p.req = waiting_.front();
    // A fully cached prompt still computes its last token to produce the first output token.
    p.left = static_cast<int32_t>(std::max<int64_t>(1, r.input_tokens - cached));
    p.done = r.input_tokens - p.left;
    kv_used_ += need;
    prefilling_.push_back(p);
    waiting_.pop_front();
  }
}

// Plans the next iteration (a token for every decoding request, then prompt chunks in arrival
// order within the token budget) and returns its duration in microseconds; 0 when idle.
int64_t ContinuousReplica::start_iteration() {
  IterationWork w;
  w.decode_tokens = static_cast<int64_t>(decoding_.size());
  w.kv_tokens_read = decode_context_;
  int64_t budget = spec_.token_budget - w.decode_tokens;
  for (auto& p : prefilling_) {
    p.planned = static_cast<int32_t>(std::clamp<int64_t>(budget, 0, p.left));
    budget -= p.planned;
    w.prefill_tokens += p.planned;
    w.prefill_attention_pairs += p.planned > 0 ? prefill_pairs(p.done, p.planned) : 0;
    w.kv_tokens_read += p.planned > 0 ? p.done : 0;
  }
  if (w.prefill_tokens + w.decode_tokens == 0) {
    return 0;
  }
  const double seconds = cost_.iteration_s(w);
  busy_s_ += seconds;
  decodes_planned_ = w.decode_tokens;
  iteration_us_ = to_us(seconds);
  return iteration_us_;
}

void ContinuousReplica::release(uint32_t req, int64_t now_us, Recorder& rec) {
  const Request& r = rec.trace.requests[req];
  rec.done(req, now_us);
  kv_used_ -= int64_t{r.input_tokens} + r.output_tokens;
}

// Prompts finished in this iteration give their first token and start decoding.
void ContinuousReplica::finish_prefills(int64_t now_us, Recorder& rec) {
  auto finished = [&](Prefill& p) {
    p.left -= p.planned;
    p.done += p.planned;
    if (p.planned == 0 || p.left > 0) {
      return false;
    }
    const Request& r = rec.trace.requests[p.req];
    rec.first_token(p.req, now_us);
    if (r.output_tokens == 1) {
      release(p.req, now_us, rec);
    } else {
      decoding_.push({iteration_ + r.output_tokens - 1, p.req});
      decode_context_ += int64_t{r.input_tokens} + 1;
    }
    return true;
  };
  prefilling_.erase(std::remove_if(prefilling_.begin(), prefilling_.end(), finished), prefilling_.end());
}

void ContinuousReplica::finish_iteration(int64_t now_us, Recorder& rec) {
  ++iteration_;
  // Every request that decoded got its token now, one iteration after its previous one.
  rec.token_gaps(iteration_us_, decodes_planned_);
  decode_context_ += decodes_planned_;
  while (!decoding_.empty() && decoding_.top().last_iteration <= iteration_) {
    const Request& r = rec.trace.requests[decoding_.top().req];
    decode_context_ -= int64_t{r.input_tokens} + r.output_tokens;
    release(decoding_.top().req, now_us, rec);
    decoding_.pop();
  }
  finish_prefills(now_us, rec);
}

}  // namespace boreas::serving
