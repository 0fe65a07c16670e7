#pragma once
// A model replica's batching engine. The simulator routes requests to it and calls poll() at the
// times it asks for; poll() finishes what is due, starts what it can and returns its next wake-up.

#include <cstdint>
#include <deque>
#include <memory>
#include <queue>
#include <vector>

#include "serving/cost_model.h"
#include "serving/prefix_cache.h"
#include "serving/recorder.h"
#include "serving/service_spec.h"

namespace boreas::serving {

inline constexpr int64_t kIdle = -1;

class Replica {
 public:
  virtual ~Replica() = default;
  virtual void enqueue(uint32_t req, int64_t now_us) = 0;
  // Brings the replica up to `now_us`; returns when it next needs a poll, or kIdle.
  virtual int64_t poll(int64_t now_us, Recorder& rec) = 0;
  virtual size_t inflight() const = 0;
  virtual const PrefixCache* prefix_cache() const { return nullptr; }
  double busy_s() const { return busy_s_; }

 protected:
  double busy_s_ = 0;
};

// Iteration-level (continuous) batching with chunked prefill, as vLLM and Sarathi-Serve do: every
// iteration each running sequence decodes one token and the rest of the token budget goes to
// prompt chunks in arrival order. A request is admitted when a batch slot is free and the KV cache
// can hold its prompt and output (requests wait while it is full; nothing is preempted).
class ContinuousReplica final : public Replica {
 public:
  ContinuousReplica(const CostModel& cost, const BatchingSpec& spec, int64_t kv_capacity_tokens,
                    int64_t prefix_cache_tokens, int32_t block_tokens);
  void enqueue(uint32_t req, int64_t now_us) override;
  int64_t poll(int64_t now_us, Recorder& rec) override;
  size_t inflight() const override { return waiting_.size() + prefilling_.size() + decoding_.size(); }
  const PrefixCache* prefix_cache() const override { return &cache_; }

 private:
  // A request whose prompt is not fully computed yet.
  struct Prefill {
    uint32_t req = 0;
    int32_t left = 0;     // prompt tokens still to compute
    int32_t done = 0;     // prompt tokens computed or cached
    int32_t planned = 0;  // tokens in the current iteration
  };
  // A request producing tokens: every iteration gives it one (the budget is >= max_batch), so it
  // ends with the iteration numbered `last_iteration`; the heap's top ends first.
  struct Decode {
    int64_t last_iteration = 0;
    uint32_t req = 0;
    bool operator>(const Decode& o) const {
      return last_iteration != o.last_iteration ? last_iteration > o.last_iteration : req > o.req;
    }
  };

  void admit(Recorder& rec);
  int64_t start_iteration();
  void finish_iteration(int64_t now_us, Recorder& rec);
  void finish_prefills(int64_t now_us, Recorder& rec);
  void release(uint32_t req, int64_t now_us, Recorder& rec);

  const CostModel& cost_;
  BatchingSpec spec_;
  int64_t kv_capacity_;
  int64_t kv_used_ = 0;
  PrefixCache cache_;
  bool caching_;
  std::deque<uint32_t> waiting_;
  std::vector<Prefill> prefilling_;
  std::priority_queue<Decode, std::vector<Decode>, std::greater<>> decoding_;
  int64_t decode_context_ = 0;  // sum over decoding requests of prompt + tokens generated so far
  int64_t iteration_ = 0;       // iterations finished
  int64_t iteration_end_ = kIdle;
  int64_t iteration_us_ = 0;
  int64_t decodes_planned_ = 0;
};

// Fixed-window dynamic batching as Triton's dynamic batcher does: the oldest queued request waits at
// most the window for others; a batch of up to max_batch runs in fixed + per_item x size seconds,
// and all of its requests finish together (one output each: TTFT = E2E, no TBT).
class DynamicReplica final : public Replica {
 public:
  explicit DynamicReplica(const BatchingSpec& spec) : spec_(spec) {}
  void enqueue(uint32_t req, int64_t now_us) override;
  int64_t poll(int64_t now_us, Recorder& rec) override;
  size_t inflight() const override { return queue_.size() + batch_.size(); }

 private:
  struct Queued {
    uint32_t req;
    int64_t arrival_us;
  };
  std::deque<Queued> queue_;
  std::vector<uint32_t> batch_;
  int64_t batch_end_ = kIdle;
  BatchingSpec spec_;
};

}  // namespace boreas::serving
