// Hand-checked serving scenarios: one or two replicas, a few requests, times worked out below.
//
// Test hardware: serving/test_fixtures.h (an iteration costs max(1.0 s, 0.01 s per token) + 0.019 s).
#include <gtest/gtest.h>

#include "serving/autoscaler.h"
#include "serving/simulator.h"
#include "serving/summary.h"
#include "serving/test_fixtures.h"

namespace boreas::serving {
namespace {

using testing::test_gpu;
using testing::test_service;
using testing::trace_of;

constexpr double kTol = 1e-5;  // seconds: attention FLOPs and microsecond rounding

double ttft(const RequestTrace& t, const ServingRun& r, size_t i) {
  return static_cast<double>(r.outcomes[i].first_token_us - t.requests[i].arrival_us) / 1e6;
}
double e2e(const RequestTrace& t, const ServingRun& r, size_t i) {
  return static_cast<double>(r.outcomes[i].done_us - t.requests[i].arrival_us) / 1e6;
}

ServingRun run(const RequestTrace& t, const ServiceSpec& s, const GpuType& g = test_gpu(), uint32_t gpus = 8) {
  auto r = simulate(t, s, Placement{g, gpus}, SimOptions{});
  EXPECT_TRUE(r.is_ok()) << (r.is_ok() ? "" : r.status().message());
  return r.is_ok() ? std::move(*r) : ServingRun{};
}

// Prefill of 200 tokens: 2.0 s of compute + 0.019; then two decodes of 1.0 + 0.019 s each.
TEST(EngineTest, OneRequestPrefillThenDecode) {
  const auto t = trace_of({{.arrival_us = 0, .input_tokens = 200, .output_tokens = 3}});
  const ServingRun r = run(t, test_service());
  EXPECT_NEAR(ttft(t, r, 0), 2.019, kTol);
  EXPECT_NEAR(e2e(t, r, 0), 2.019 + 2 * 1.019, kTol);
  ASSERT_EQ(r.tbt.size(), 2u);  // two iterations, one gap each
  EXPECT_NEAR(r.tbt[0].seconds, 1.019, kTol);
  EXPECT_EQ(r.tbt[0].count, 1);
  const Summary s = summarize(t, test_service(), test_gpu(), r);
  EXPECT_NEAR(s.tbt_p99_s, 1.019, kTol);
  EXPECT_NEAR(s.gpu_hours, 4.057 / 3600, 1e-8);  // one GPU from 0 to the last token
}

// Budget 250 tokens, two 300-token prompts at t=0, two outputs each:
//  it 1: A 250          -> 2.5 s + 0.019 = 2.519
//  it 2: A 50 + B 200   -> 2.519; A's first token at 5.038
//  it 3: A decode + B 100 -> 101 tokens, 1.01 s compute > 1.0 s weights: 1.029; B's first token and A's
//        last at 6.067
//  it 4: B decode       -> 1.019; B done at 7.086
TEST(EngineTest, ChunkedPrefillSharesTheTokenBudget) {
  const auto t = trace_of({{.arrival_us = 0, .input_tokens = 300, .output_tokens = 2},
                           {.arrival_us = 0, .input_tokens = 300, .output_tokens = 2}});
  const ServingRun r = run(t, test_service(250));
  EXPECT_NEAR(ttft(t, r, 0), 5.038, kTol);
  EXPECT_NEAR(e2e(t, r, 0), 6.067, kTol);
  EXPECT_NEAR(ttft(t, r, 1), 6.067, kTol);
  EXPECT_NEAR(e2e(t, r, 1), 7.086, kTol);
}

// KV for 250 tokens (1 byte each). A (200 in, 3 out: 203 tokens) starts at 0; B (50 in, 1 out: 51)
// arrives at 1 s and does not fit beside A, so it waits for A's last token:
//   A: prefill 2.019, two decodes of 1.019 -> done at 4.057; B: prefill of 50 (0.5 s of compute,
//   under the 1.0 s of weights) 1.019 -> done at 5.076, E2E 4.076.
// With room for both, B joins A's second iteration (A decodes, B prefills: 51 tokens, 1.019 s) and
// finishes at 3.038 (E2E 2.038); A still ends at 4.057.
TEST(EngineTest, RequestsWaitWhileTheKvCacheIsFull) {
  const auto t = trace_of({{.arrival_us = 0, .input_tokens = 200, .output_tokens = 3},
                           {.arrival_us = 1000000, .input_tokens = 50, .output_tokens = 1}});
  const double room_for_250 = (0.84e9 + 250.5) / (0.9 * 1073741824.0);
  const ServingRun tight = run(t, test_service(), test_gpu(room_for_250));
  EXPECT_EQ(tight.kv_capacity_tokens, 250);
  EXPECT_NEAR(e2e(t, tight, 0), 4.057, kTol);
  EXPECT_NEAR(e2e(t, tight, 1), 4.076, kTol);
  const ServingRun roomy = run(t, test_service());
  EXPECT_NEAR(e2e(t, roomy, 0), 4.057, kTol);
  EXPECT_NEAR(e2e(t, roomy, 1), 2.038, kTol);
}

TEST(EngineTest, ARequestLargerThanTheKvCacheIsAnError) {
  const auto t = trace_of({{.arrival_us = 0, .input_tokens = 400, .output_tokens = 1}});
  const double room_for_300 = (0.84e9 + 300.5) / (0.9 * 1073741824.0);
  auto r = simulate(t, test_service(), Placement{test_gpu(room_for_300), 8}, SimOptions{});
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("request 0 (0-based) needs 401 KV tokens"), std::string::npos)
      << r.status().message();
}

TEST(EngineTest, MoreReplicasThanGpusIsAnError) {
  ServiceSpec s = test_service();
  s.tp = 4;
  s.autoscaler.max_replicas = 3;
  auto r = simulate(trace_of({{.arrival_us = 0, .input_tokens = 1, .output_tokens = 1}}), s,
                    Placement{test_gpu(), 8}, SimOptions{});
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("need 12 T GPUs, the cluster has 8"), std::string::npos) << r.status().message();
}

// Two warm replicas, round robin: each takes one 200-token prompt, both finish at 2.019 (alone on
// one replica they would take 4.019 together).
TEST(EngineTest, RoundRobinSpreadsRequests) {
  ServiceSpec s = test_service();
  s.router = RouterKind::kRoundRobin;
  s.autoscaler.min_replicas = s.autoscaler.max_replicas = s.autoscaler.initial_replicas = 2;
  const auto t = trace_of({{.arrival_us = 0, .input_tokens = 200, .output_tokens = 1},
                           {.arrival_us = 0, .input_tokens = 200, .output_tokens = 1}});
  const ServingRun r = run(t, s);
  EXPECT_NEAR(e2e(t, r, 0), 2.019, kTol);
  EXPECT_NEAR(e2e(t, r, 1), 2.019, kTol);
}

// Prefix-aware routing: request 0 (blocks 1, 2) goes to replica 0 (both empty, lowest index);
// request 1 (blocks 7, 8) to the shorter queue, replica 1; request 2 (blocks 7, 9) shares block 7
// with replica 1's cache and goes there although both queues are equal. With an unbounded cache
// per replica, 1 of request 2's 2 blocks is a hit: 512 of the 3 x 1,024 prompt tokens.
TEST(EngineTest, PrefixRouterFollowsTheCachedPrefix) {
  ServiceSpec s = test_service();
  s.router = RouterKind::kPrefix;
  s.autoscaler.min_replicas = s.autoscaler.max_replicas = s.autoscaler.initial_replicas = 2;
  RequestTrace t = trace_of({{.arrival_us = 0, .input_tokens = 1024, .output_tokens = 1, .first_block = 0, .block_count = 2},
                             {.arrival_us = 0, .input_tokens = 1024, .output_tokens = 1, .first_block = 2, .block_count = 2},
                             {.arrival_us = 0, .input_tokens = 1024, .output_tokens = 1, .first_block = 4, .block_count = 2}});
  t.block_tokens = 512;
  t.blocks = {1, 2, 7, 8, 7, 9};
  SimOptions options;
  options.prefix_cache_tokens = PrefixCache::kUnbounded;
  auto r = simulate(t, s, Placement{test_gpu(), 8}, options);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->prefix.hit_tokens, 512);
  EXPECT_EQ(r->prefix.prompt_tokens, 3 * 1024);
  // Replica 1 runs request 1 (10.24 s of compute + 0.019) then request 2's 512 uncached tokens
  // (5.12 s + 0.019): request 2 ends at 15.398 s, plus 44 us of attention FLOPs at these lengths.
  EXPECT_NEAR(e2e(t, *r, 2), 10.259 + 5.139, 1e-4);
}

// Window 10 ms, batch = 2 ms + 1 ms per request, at most 4 requests.
ServiceSpec dynamic_service() {
  ServiceSpec s = test_service();
  s.batching.kind = BatchingKind::kDynamic;
  s.batching.window_s = 0.010;
  s.batching.batch_fixed_s = 0.002;
  s.batching.batch_per_item_s = 0.001;
  s.batching.max_batch = 4;
  return s;
}

// Window 10 ms, batch = 2 ms + 1 ms per request. Arrivals at 0, 3, 5 ms go out at 10 ms together
// and end at 15 ms; the one at 20 ms waits its own window (30 ms) and ends at 33 ms.
TEST(EngineTest, DynamicBatchingWaitsOneWindow) {
  const ServiceSpec s = dynamic_service();
  const auto t = trace_of({{.arrival_us = 0, .input_tokens = 1, .output_tokens = 1},
                           {.arrival_us = 3000, .input_tokens = 1, .output_tokens = 1},
                           {.arrival_us = 5000, .input_tokens = 1, .output_tokens = 1},
                           {.arrival_us = 20000, .input_tokens = 1, .output_tokens = 1}});
  const ServingRun r = run(t, s);
  EXPECT_NEAR(e2e(t, r, 0), 0.015, 1e-9);
  EXPECT_NEAR(e2e(t, r, 1), 0.012, 1e-9);
  EXPECT_NEAR(e2e(t, r, 2), 0.010, 1e-9);
  EXPECT_NEAR(e2e(t, r, 3), 0.013, 1e-9);
}

// A full batch does not wait for the window: four requests at 0 end at 2 + 4 = 6 ms.
TEST(EngineTest, DynamicBatchingDispatchesAFullBatchAtOnce) {
  const ServiceSpec s = dynamic_service();
  std::vector<Request> reqs(4, Request{.arrival_us = 0, .input_tokens = 1, .output_tokens = 1});
  const auto t = trace_of(reqs);
  const ServingRun r = run(t, s);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(e2e(t, r, i), 0.006, 1e-9);
  }
}

TEST(AutoscalerTest, ReactiveDividesInFlightByTheTarget) {
  AutoscalerSpec spec{.kind = AutoscalerKind::kReactive, .min_replicas = 1, .max_replicas = 4, .target_inflight = 10};
  Autoscaler a(spec);
  EXPECT_EQ(a.desired({.inflight = 25}), 3);
  EXPECT_EQ(a.desired({.inflight = 0}), 1);    // never below min
  EXPECT_EQ(a.desired({.inflight = 100}), 4);  // never above max
}

// 5 req/s in [0, 10 s), 10 req/s in [10, 20 s): extrapolated 10 s ahead (5 s cold start + 5 s
// interval) that is 15 req/s; at 2 s per request 30 in flight, 3 replicas of 10.
TEST(AutoscalerTest, PredictiveExtrapolatesThePastRate) {
  AutoscalerSpec spec{.kind = AutoscalerKind::kPredictive, .min_replicas = 1, .max_replicas = 8, .interval_s = 5,
                      .target_inflight = 10, .window_s = 10};
  Autoscaler a(spec);
  for (int i = 0; i < 50; ++i) {
    a.on_arrival(i * 200000);
  }
  for (int i = 0; i < 100; ++i) {
    a.on_arrival(10000000 + i * 100000);
  }
  EXPECT_EQ(a.desired({.now_us = 20000000 - 1, .inflight = 0, .mean_latency_s = 2, .cold_start_s = 5}), 3);
}

// A burst on one replica: the reactive autoscaler adds replicas, each after a cold start of
// weights / load bandwidth (0.84 GB / 0.42 GB/s = 2 s).
TEST(EngineTest, ReactiveScalingPaysColdStarts) {
  ServiceSpec s = test_service();
  s.autoscaler = AutoscalerSpec{.kind = AutoscalerKind::kReactive, .min_replicas = 1, .max_replicas = 4,
                                .initial_replicas = 1, .interval_s = 1, .target_inflight = 2, .load_gbps = 0.42};
  std::vector<Request> reqs(8, Request{.arrival_us = 0, .input_tokens = 100, .output_tokens = 20});
  const auto t = trace_of(reqs);
  const ServingRun r = run(t, s);
  EXPECT_EQ(r.cold_starts, 3);
  EXPECT_NEAR(r.cold_start_s, 2.0, 1e-9);
  EXPECT_EQ(r.max_replicas, 4);
}

TEST(EngineTest, RunsRepeatExactly) {
  std::vector<Request> reqs;
  for (int i = 0; i < 50; ++i) {
    reqs.push_back({.arrival_us = i * 70000, .input_tokens = 50 + 13 * (i % 7), .output_tokens = 1 + i % 5});
  }
  const auto t = trace_of(reqs);
  ServiceSpec s = test_service();
  s.autoscaler.min_replicas = 1;
  s.autoscaler.max_replicas = 3;
  s.autoscaler.kind = AutoscalerKind::kReactive;
  const ServingRun a = run(t, s);
  const ServingRun b = run(t, s);
  for (size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_EQ(a.outcomes[i].done_us, b.outcomes[i].done_us);
    EXPECT_GE(a.outcomes[i].first_token_us, reqs[i].arrival_us);
    EXPECT_GE(a.outcomes[i].done_us, a.outcomes[i].first_token_us);
  }
}

}  // namespace
}  // namespace boreas::serving

namespace boreas::serving {
namespace {

// Nine gaps of 1 s and one of 5 s: the median and p90 are 1 s, p99 (rank 10 of 10) is 5 s.
TEST(SummaryTest, WeightedPercentilesCountEveryGap) {
  std::vector<GapSample> gaps = {{5.0, 1}, {1.0, 9}};
  EXPECT_EQ(percentile(gaps, 0.5), 1.0);
  EXPECT_EQ(percentile(gaps, 0.9), 1.0);
  EXPECT_EQ(percentile(gaps, 0.99), 5.0);
  std::vector<GapSample> none;
  EXPECT_EQ(percentile(none, 0.5), 0.0);
}

}  // namespace
}  // namespace boreas::serving
