#pragma once
// A model replica's batching engine. The simulator routes requests to it and calls poll() at the
// times it asks for; poll() finishes what is due, starts what it can and returns its next wake-up.

#include <cstdint>
#include <deque>
#include <memory>
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
  size_t inflight() const override { return waiting_.size() + running_.size(); }
  const PrefixCache* prefix_cache() const override { return &cache_; }

 private:
  struct Seq {
    uint32_t req = 0;
    int32_t prefill_left = 0;
    int32_t prefill_done = 0;
    int32_t generated = 0;
    int32_t planned = 0;  // tokens in the current iteration
    int64_t last_token_us = 0;
    int64_t kv_tokens = 0;
  };

  void admit(Recorder& rec);
  int64_t start_iteration(Recorder& rec);
  void finish_iteration(int64_t now_us, Recorder& rec);
  bool advance(Seq& s, int64_t now_us, Recorder& rec);

  const CostModel& cost_;
  BatchingSpec spec_;
  int64_t kv_capacity_;
  int64_t kv_used_ = 0;
  PrefixCache cache_;
  bool caching_;
  std::deque<uint32_t> waiting_;
  std::vector<Seq> running_;
  int64_t iteration_end_ = kIdle;
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
