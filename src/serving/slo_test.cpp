// Splitwise's slowdown SLOs on hand-checked scenarios (docs/serving.md "SLOs").
//
// Test hardware: serving/test_fixtures.h. An iteration costs max(1.0 s of weights, 0.01 s per
// token) + 0.019 s overhead; KV reads and attention add under 1 us.
#include <gtest/gtest.h>

#include "serving/simulator.h"
#include "serving/slo.h"
#include "serving/summary.h"
#include "serving/test_fixtures.h"

namespace boreas::serving {
namespace {

using testing::test_gpu;
using testing::test_service;
using testing::trace_of;

constexpr double kTol = 1e-5;

Summary run_summary(const RequestTrace& t, const ServiceSpec& s) {
  auto r = simulate(t, s, Placement{test_gpu(), 8}, SimOptions{});
  EXPECT_TRUE(r.is_ok());
  return r.is_ok() ? summarize(t, s, test_gpu(), *r) : Summary{};
}

const SloRow& row(const Summary& s, const std::string& metric, double q) {
  for (const auto& r : s.slowdown) {
    if (r.metric == metric && r.quantile == q) {
      return r;
    }
  }
  ADD_FAILURE() << "no row " << metric << " " << q;
  return s.slowdown.front();
}

// 200 prompt tokens: one 2.0 s prefill (compute-bound) + 0.019; two decodes at batch 1 of 1.019 s.
TEST(SloTest, IsolatedLatencyIsPrefillThenBatchOneDecodes) {
  const ServiceSpec s = test_service();
  const IsolatedLatency iso = isolated_latency({.input_tokens = 200, .output_tokens = 3}, s, cost_model_for(s, test_gpu()));
  EXPECT_NEAR(iso.ttft_s, 2.019, kTol);
  EXPECT_NEAR(iso.tbt_s, 1.019, kTol);
  EXPECT_NEAR(iso.e2e_s, 2.019 + 2 * 1.019, kTol);
}

// A 1,000-token budget chunks a 1,500-token prompt: 10.019 s, then 5.0 s of compute + 0.019. Long
// prompts make attention visible: 4 FLOPs x (500,500 + 625,250) pairs at 0.084 TFLOPS = 53.6 us.
TEST(SloTest, IsolatedPrefillIsChunkedByTheTokenBudget) {
  ServiceSpec s = test_service();
  s.batching.token_budget = 1000;
  const IsolatedLatency iso = isolated_latency({.input_tokens = 1500, .output_tokens = 1}, s, cost_model_for(s, test_gpu()));
  EXPECT_NEAR(iso.ttft_s, 10.019 + 5.019 + 4.0 * (500500 + 625250) / 0.084e12, kTol);
  EXPECT_EQ(iso.tbt_s, 0);  // no second token
  EXPECT_NEAR(iso.e2e_s, iso.ttft_s, kTol);
}

TEST(SloTest, DynamicBatchingIsolatedIsOneBatchOfOne) {
  ServiceSpec s = test_service();
  s.batching.kind = BatchingKind::kDynamic;
  const IsolatedLatency iso = isolated_latency({.input_tokens = 10, .output_tokens = 5}, s, cost_model_for(s, test_gpu()));
  EXPECT_NEAR(iso.e2e_s, 0.002 + 0.0001, 1e-12);  // fixed + per item; the window is queueing
  EXPECT_EQ(iso.tbt_s, 0);
}

TEST(SloTest, ARequestAloneHasNoSlowdown) {
  const Summary s = run_summary(trace_of({{.arrival_us = 0, .input_tokens = 200, .output_tokens = 3}}), test_service());
  ASSERT_EQ(s.slowdown.size(), 9u);
  for (const auto& r : s.slowdown) {
    EXPECT_NEAR(r.slowdown, 1.0, 1e-5) << r.metric << " " << r.quantile;
    EXPECT_TRUE(r.pass);
  }
  EXPECT_TRUE(s.slo_met);
  EXPECT_DOUBLE_EQ(s.slo_attainment, 1.0);
}

// Three requests of 200 prompt / 3 output tokens at t = 0 on one replica:
//   it 1: r0's prefill, 2.019 s                      -> r0's first token at 2.019
//   it 2: r0 decodes, r1 and r2 prefill, 401 tokens:  4.029 s -> 6.048: r1, r2 first tokens
//   it 3: three decodes, 1.019 s                      -> 7.067: r0 done
//   it 4: two decodes, 1.019 s                        -> 8.086: r1, r2 done
// Alone each would take TTFT 2.019, TBT 1.019, E2E 4.057. Slowdowns:
//   TTFT [1, 2.9955, 2.9955]; TBT [1, 1, (7.067-2.019)/2/1.019 = 2.4769]; E2E [7.067/4.057 = 1.7419, 1.9931, 1.9931]
TEST(SloTest, ThreeSimultaneousRequestsMissTheMedianRows) {
  const Request r{.arrival_us = 0, .input_tokens = 200, .output_tokens = 3};
  const Summary s = run_summary(trace_of({r, r, r}), test_service());
  EXPECT_NEAR(row(s, "ttft", 0.5).slowdown, 6.048 / 2.019, 1e-4);
  EXPECT_FALSE(row(s, "ttft", 0.5).pass);  // > 2
  EXPECT_TRUE(row(s, "ttft", 0.9).pass);   // 2.9955 <= 3
  EXPECT_NEAR(row(s, "tbt", 0.5).slowdown, 1.0, 1e-4);
  EXPECT_TRUE(row(s, "tbt", 0.5).pass);
  EXPECT_NEAR(row(s, "tbt", 0.9).slowdown, (7.067 - 2.019) / 2 / 1.019, 1e-4);
  EXPECT_FALSE(row(s, "tbt", 0.9).pass);  // > 1.5
  EXPECT_NEAR(row(s, "e2e", 0.5).slowdown, 8.086 / 4.057, 1e-4);
  EXPECT_FALSE(row(s, "e2e", 0.5).pass);  // > 1.25
  EXPECT_TRUE(row(s, "e2e", 0.99).pass);  // <= 5
  EXPECT_FALSE(s.slo_met);
  EXPECT_DOUBLE_EQ(s.slo_attainment, 1.0);  // every request is within the P99 limits (6, 5, 5)
}

TEST(SloTest, AbsoluteSloUsesTheThresholdsAndTheTarget) {
  ServiceSpec svc = test_service();
  svc.slo = {.kind = SloKind::kAbsolute, .ttft_s = 3, .tbt_s = 3, .target = 0.5};
  const Request r{.arrival_us = 0, .input_tokens = 200, .output_tokens = 3};
  const Summary s = run_summary(trace_of({r, r, r}), svc);
  // Only r0 is within both: TTFT 2.019, mean TBT 2.524; r1 and r2 wait 6.048 s for a first token.
  EXPECT_NEAR(s.slo_attainment, 1.0 / 3, 1e-12);
  EXPECT_FALSE(s.slo_met);  // 1/3 < 0.5
  svc.slo.target = 0.3;
  EXPECT_TRUE(run_summary(trace_of({r, r, r}), svc).slo_met);
}

}  // namespace
}  // namespace boreas::serving
