#pragma once
// Test hardware shared by the serving tests: the model has 0.42e9 parameters (0.84 GB of weights);
// the GPU reads 1 GB/s and does 0.15 TFLOPS, so at the fitted efficiencies (0.84, 0.56) an
// iteration costs max(1.0 s of weights, 0.01 s per token) + 0.019 s overhead. Attention adds under
// 1 us for short prompts (one layer, hidden size 1).

#include <utility>
#include <vector>

#include "core/gpu.h"
#include "serving/request_trace.h"
#include "serving/service_spec.h"

namespace boreas::serving::testing {

inline GpuType test_gpu(double memory_gib = 80) {
  GpuType g;
  g.name = "T";
  g.bf16_tflops = 0.15;
  g.memory_bandwidth_gbps = 1;
  g.memory_gib = memory_gib;
  g.tdp_w = 100;
  g.idle_w = 10;
  g.price.on_demand_usd_per_hour = 2;
  return g;
}

inline ServiceSpec test_service(int32_t token_budget = 8192) {
  ServiceSpec s;
  s.name = "t";
  s.model = ModelShape{.params = 0.42e9, .layers = 1, .hidden = 1, .kv_bytes_per_token = 1};
  s.gpu = "T";
  s.batching.token_budget = token_budget;
  s.batching.max_batch = 8;
  return s;
}

inline RequestTrace trace_of(std::vector<Request> reqs) {
  RequestTrace t;
  t.format = "test";
  t.requests = std::move(reqs);
  return t;
}

}  // namespace boreas::serving::testing
