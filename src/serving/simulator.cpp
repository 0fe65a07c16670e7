#include "serving/simulator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <queue>

#include "serving/autoscaler.h"
#include "serving/replica.h"
#include "serving/router.h"

namespace boreas::serving {

namespace {

enum class EventKind { kWake, kReady, kTick };

struct Event {
  int64_t t;
  uint64_t seq;
  EventKind kind;
  size_t replica;
  uint64_t version;
  bool operator>(const Event& o) const { return t != o.t ? t > o.t : seq > o.seq; }
};

enum class SlotState { kStarting, kActive, kDraining, kStopped };

struct Slot {
  std::unique_ptr<Replica> replica;
  SlotState state = SlotState::kActive;
  int64_t asked_us = 0;
  int64_t start_us = 0;
  int64_t ready_us = 0;
  int64_t stop_us = -1;
  uint64_t version = 0;
  int64_t wake_us = kIdle;
};

double cold_start_seconds(const ServiceSpec& s) {
  return s.model.weight_bytes() / (s.autoscaler.load_gbps * 1e9);
}

class Engine {
 public:
  Engine(const RequestTrace& trace, const ServiceSpec& service, const GpuType& gpu, const SimOptions& options)
      : trace_(trace),
        service_(service),
        options_(options),
        cost_(service.model, Hardware{gpu.bf16_tflops * 1e12, gpu.memory_bandwidth_gbps * 1e9, service.tp}),
        kv_capacity_(kv_capacity_tokens(service, gpu)),
        cold_start_us_(static_cast<int64_t>(std::llround(cold_start_seconds(service) * 1e6))),
        router_(service.router),
        autoscaler_(service.autoscaler),
        rec_(trace) {}

  ServingRun run();

 private:
  void push(int64_t t, EventKind kind, size_t replica = 0, uint64_t version = 0) {
    events_.push({t, seq_++, kind, replica, version});
  }
  size_t add_replica(int64_t now, bool warm);
  void arrive(uint32_t req, int64_t now);
  void wake(size_t r, int64_t now);
  void handle(const Event& e);
  void tick(int64_t now);
  void scale_up(int32_t wanted, int64_t now);
  void scale_down(int32_t wanted);
  size_t inflight() const;
  int32_t count(SlotState s) const;
  ServingRun finish();

  const RequestTrace& trace_;
  const ServiceSpec& service_;
  const SimOptions& options_;
  CostModel cost_;
  int64_t kv_capacity_;
  int64_t cold_start_us_;
  Router router_;
  Autoscaler autoscaler_;
  Recorder rec_;
  std::vector<Slot> slots_;
  std::vector<const Replica*> replicas_;  // by slot, for the router
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  uint64_t seq_ = 0;
  size_t next_arrival_ = 0;
  int32_t cold_starts_ = 0;
  int32_t max_replicas_ = 0;
  std::vector<size_t> candidates_;
};

size_t Engine::add_replica(int64_t now, bool warm) {
  Slot s;
  if (service_.batching.kind == BatchingKind::kDynamic) {
    s.replica = std::make_unique<DynamicReplica>(service_.batching);
  } else {
    s.replica = std::make_unique<ContinuousReplica>(cost_, service_.batching, kv_capacity_,
                                                    options_.prefix_cache_tokens, trace_.block_tokens);
  }
  replicas_.push_back(s.replica.get());
  const size_t index = slots_.size();
  const auto& waits = options_.replica_wait_us;
  s.asked_us = now;
  s.start_us = now + (index < waits.size() ? waits[index] : 0);
  s.ready_us = s.start_us + (warm ? 0 : cold_start_us_);
  s.state = s.ready_us == now ? SlotState::kActive : SlotState::kStarting;
  slots_.push_back(std::move(s));
  if (!warm) {
    ++cold_starts_;
  }
  if (slots_[index].state == SlotState::kStarting) {
    push(slots_[index].ready_us, EventKind::kReady, index);
  }
  max_replicas_ = std::max(max_replicas_, count(SlotState::kActive) + count(SlotState::kStarting));
  return index;
}

int32_t Engine::count(SlotState state) const {
  return static_cast<int32_t>(std::count_if(slots_.begin(), slots_.end(), [&](const Slot& s) { return s.state == state; }));
}

size_t Engine::inflight() const {
  size_t n = 0;
  for (const auto& s : slots_) {
    n += s.state == SlotState::kStopped ? 0 : s.replica->inflight();
  }
  return n;
}

void Engine::wake(size_t r, int64_t now) {
  Slot& s = slots_[r];
  const int64_t t = s.replica->poll(now, rec_);
  if (t != s.wake_us) {
    ++s.version;
    s.wake_us = t;
    if (t != kIdle) {
      push(t, EventKind::kWake, r, s.version);
    }
  }
  if (s.state == SlotState::kDraining && s.replica->inflight() == 0) {
    s.state = SlotState::kStopped;
    s.stop_us = now;
  }
}

void Engine::arrive(uint32_t req, int64_t now) {
  autoscaler_.on_arrival(now);
  candidates_.clear();
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].state == SlotState::kActive) {
      candidates_.push_back(i);
    }
  }
  const size_t r = router_.pick(candidates_, replicas_, trace_.blocks_of(trace_.requests[req]));
  slots_[r].replica->enqueue(req, now);
  wake(r, now);
}

void Engine::scale_up(int32_t wanted, int64_t now) {
  for (auto& s : slots_) {
    if (wanted > 0 && s.state == SlotState::kDraining) {
      s.state = SlotState::kActive;
      --wanted;
    }
  }
  for (; wanted > 0; --wanted) {
    add_replica(now, /*warm=*/false);
  }
}

// Drains the active replicas with the least work first; they stop when empty.
void Engine::scale_down(int32_t extra) {
  std::vector<size_t> active;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].state == SlotState::kActive) {
      active.push_back(i);
    }
  }
  std::stable_sort(active.begin(), active.end(),
                   [&](size_t a, size_t b) { return slots_[a].replica->inflight() < slots_[b].replica->inflight(); });
  for (size_t i = 0; i < active.size() && extra > 0 && active.size() - i > 1; ++i, --extra) {
    Slot& s = slots_[active[i]];
    s.state = SlotState::kDraining;
    if (s.replica->inflight() == 0) {
      s.state = SlotState::kStopped;
    }
  }
}

void Engine::tick(int64_t now) {
  LoadSignal load;
  load.now_us = now;
  load.inflight = inflight();
  load.mean_latency_s = rec_.finished == 0 ? 0 : rec_.e2e_sum_s / static_cast<double>(rec_.finished);
  load.cold_start_s = static_cast<double>(cold_start_us_) / 1e6;
  const int32_t want = autoscaler_.desired(load);
  const int32_t have = count(SlotState::kActive) + count(SlotState::kStarting);
  if (want > have) {
    scale_up(want - have, now);
  } else if (want < have) {
    scale_down(have - want);
  }
  for (auto& s : slots_) {
    if (s.state == SlotState::kStopped && s.stop_us < 0) {
      s.stop_us = now;
    }
  }
  if (next_arrival_ < trace_.requests.size() || load.inflight > 0) {
    push(now + static_cast<int64_t>(std::llround(service_.autoscaler.interval_s * 1e6)), EventKind::kTick);
  }
}

void Engine::handle(const Event& e) {
  switch (e.kind) {
    case EventKind::kWake:
      if (e.version == slots_[e.replica].version) {
        slots_[e.replica].wake_us = kIdle;
        ++slots_[e.replica].version;
        wake(e.replica, e.t);
      }
      return;
    case EventKind::kReady:
      if (slots_[e.replica].state == SlotState::kStarting) {
        slots_[e.replica].state = SlotState::kActive;
      }
      return;
    case EventKind::kTick:
      tick(e.t);
      return;
  }
}

ServingRun Engine::run() {
  for (int32_t i = 0; i < service_.autoscaler.initial_replicas; ++i) {
    add_replica(0, /*warm=*/true);
  }
  if (service_.autoscaler.kind != AutoscalerKind::kNone) {
    push(static_cast<int64_t>(std::llround(service_.autoscaler.interval_s * 1e6)), EventKind::kTick);
  }
  const auto& reqs = trace_.requests;
  while (next_arrival_ < reqs.size() || !events_.empty()) {
    if (next_arrival_ < reqs.size() && (events_.empty() || reqs[next_arrival_].arrival_us < events_.top().t)) {
      arrive(static_cast<uint32_t>(next_arrival_), reqs[next_arrival_].arrival_us);
      ++next_arrival_;
      continue;
    }
    const Event e = events_.top();
    events_.pop();
    handle(e);
  }
  return finish();
}

ServingRun Engine::finish() {
  ServingRun run;
  const int64_t end = std::max(rec_.last_done_us, trace_.requests.back().arrival_us);
  for (const auto& s : slots_) {
    const int64_t stop = std::max(s.stop_us < 0 ? end : s.stop_us, s.start_us);  // still waiting: held 0 s
    run.replica_seconds += static_cast<double>(stop - s.start_us) / 1e6;
    run.busy_gpu_seconds += s.replica->busy_s() * service_.tp;
    run.replicas.push_back(ReplicaLife{s.asked_us, s.start_us, s.ready_us, stop});
  }
  run.outcomes = std::move(rec_.outcomes);
  run.tbt = std::move(rec_.tbt);
  run.prefix = rec_.prefix;
  run.cold_starts = cold_starts_;
  run.cold_start_s = static_cast<double>(cold_start_us_) / 1e6;
  run.cold_start_seconds = cold_starts_ * run.cold_start_s;
  run.max_replicas = max_replicas_;
  run.end_s = static_cast<double>(end) / 1e6;
  run.kv_capacity_tokens = kv_capacity_;
  return run;
}

Status check_fits(const RequestTrace& trace, const ServiceSpec& service, const Placement& placement) {
  const int64_t gpus = int64_t{service.tp} * service.autoscaler.max_replicas;
  if (gpus > placement.gpus_available) {
    return invalid_argument(fmt::format("service '{}': {} replicas x tp {} need {} {} GPUs, the cluster has {}; lower "
                                        "autoscaler.max_replicas or replica.tp, or use a larger cluster",
                                        service.name, service.autoscaler.max_replicas, service.tp, gpus,
                                        placement.gpu.name, placement.gpus_available));
  }
  if (service.batching.kind == BatchingKind::kDynamic) {
    return Status::ok();
  }
  if (service.batching.max_batch > service.batching.token_budget) {
    return invalid_argument(fmt::format("service '{}': batching.max_batch {} is above token_budget {}; every running "
                                        "sequence needs a token per iteration, so raise token_budget",
                                        service.name, service.batching.max_batch, service.batching.token_budget));
  }
  const int64_t cap = kv_capacity_tokens(service, placement.gpu);
  if (cap <= 0) {
    return invalid_argument(fmt::format("service '{}': the weights ({:.1f} GB) do not fit in {} x {} ({} GiB) at "
                                        "memory_fraction {}; raise replica.tp",
                                        service.name, service.model.weight_bytes() / 1e9, service.tp,
                                        placement.gpu.name, placement.gpu.memory_gib, service.batching.memory_fraction));
  }
  for (size_t i = 0; i < trace.requests.size(); ++i) {
    const auto& r = trace.requests[i];
    if (int64_t{r.input_tokens} + r.output_tokens > cap) {
      return invalid_argument(fmt::format("request {} (0-based) needs {} KV tokens, one replica of '{}' holds {}; raise "
                                          "replica.tp or use a GPU with more memory",
                                          i, int64_t{r.input_tokens} + r.output_tokens, service.name, cap));
    }
  }
  return Status::ok();
}

}  // namespace

int64_t kv_capacity_tokens(const ServiceSpec& service, const GpuType& gpu) {
  const double memory = service.tp * gpu.memory_gib * 1073741824.0 * service.batching.memory_fraction;
  const double free = memory - service.model.weight_bytes();
  if (free <= 0) {
    return 0;
  }
  if (service.model.kv_bytes_per_token <= 0) {
    return INT64_MAX / 4;
  }
  return static_cast<int64_t>(free / service.model.kv_bytes_per_token);
}

Result<ServingRun> simulate(const RequestTrace& trace, const ServiceSpec& service, const Placement& placement,
                            const SimOptions& options) {
  if (trace.requests.empty()) {
    return invalid_argument("the request trace is empty");
  }
  BOREAS_RETURN_IF_ERROR(check_fits(trace, service, placement));
  Engine engine(trace, service, placement.gpu, options);
  return engine.run();
}

}  // namespace boreas::serving
