#pragma once
// A served model, written in YAML (docs/formats/service.md): the model's shape, the GPU type
// and tensor-parallel degree of a replica, the batching engine, the router, the autoscaler and the
// SLO. Errors say file:line:col, what is wrong and how to fix it.

#include <cstdint>
#include <string>

#include "core/gpu.h"
#include "core/status.h"
#include "serving/cost_model.h"

namespace boreas::serving {

enum class BatchingKind { kContinuous, kDynamic };
enum class RouterKind { kRoundRobin, kShortestQueue, kPrefix };
enum class AutoscalerKind { kNone, kReactive, kPredictive };
enum class SloKind { kSlowdown, kAbsolute };

struct BatchingSpec {
  BatchingKind kind = BatchingKind::kContinuous;
  int32_t max_batch = 256;        // sequences in an iteration (continuous) or requests per batch (dynamic)
  int32_t token_budget = 8192;    // tokens per iteration; prompts are chunked to fit (continuous)
  double memory_fraction = 0.9;   // of GPU memory usable for weights + KV (continuous)
  double window_s = 0.005;        // dynamic: how long the first request of a batch waits for others
  double batch_fixed_s = 0.002;   // dynamic: time of a batch = fixed + per_item * size
  double batch_per_item_s = 0.0001;
};

struct AutoscalerSpec {
  AutoscalerKind kind = AutoscalerKind::kNone;
  int32_t min_replicas = 1;
  int32_t max_replicas = 1;
  int32_t initial_replicas = 1;
  double interval_s = 10;         // how often it decides
  double target_inflight = 32;    // requests in flight per replica it aims at
  double window_s = 60;           // predictive: the past window whose rate it extrapolates
  double load_gbps = 2;           // weight loading bandwidth (GB/s); cold start = weights / this
};

// slowdown (default): Splitwise's percentile limits on each request's latency over the same request
// alone on an unloaded replica (slo.h). absolute: a request meets the SLO when its TTFT and its
// mean TBT are within ttft_s and tbt_s; the service meets it when at least `target` of them do.
struct SloSpec {
  SloKind kind = SloKind::kSlowdown;
  double ttft_s = 2;
  double tbt_s = 0.2;
  double target = 0.99;
};

struct ServiceSpec {
  std::string name;
  ModelShape model;
  std::string gpu;     // GPU type name in the cluster's catalog
  int32_t tp = 1;
  BatchingSpec batching;
  RouterKind router = RouterKind::kShortestQueue;
  AutoscalerSpec autoscaler;
  SloSpec slo;
};

Result<ServiceSpec> load_service_file(const std::string& path);
Result<ServiceSpec> load_service_string(const std::string& yaml, const std::string& file);

}  // namespace boreas::serving
