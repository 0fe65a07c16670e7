// `--find-max-rate` on hand-checked and property scenarios (docs/serving.md "Max rate at SLO").
// Test hardware (serving/test_fixtures.h): an iteration costs max(1.0 s, 0.01 s per token) + 0.019 s.
#include <gtest/gtest.h>

#include "serving/max_rate.h"
#include "serving/test_fixtures.h"

namespace boreas::serving {
namespace {

using testing::test_gpu;
using testing::trace_of;

ServiceSpec test_service(int32_t replicas) {
  ServiceSpec s = testing::test_service();
  s.autoscaler.max_replicas = replicas;
  return s;
}

// Two one-token requests of 200 prompt tokens, 10 s apart: 0.2 req/s. Alone each takes 2.019 s.
// At a gap g < 2.019 s the second waits for the first: E2E = 2 x 2.019 - g, and with two requests
// the P90 row is the larger, so E2E P90 <= 1.5 x 2.019 holds while g >= 4.038 - 3.0285 = 1.0095 s:
// the trace compressed 10 / 1.0095 = 9.906 x, 1.981 req/s. TTFT (= E2E) P90 <= 3x holds for any g.
TEST(MaxRateTest, TwoRequestsHandChecked) {
  const RequestTrace t = trace_of({{.arrival_us = 0, .input_tokens = 200, .output_tokens = 1},
                                   {.arrival_us = 10'000'000, .input_tokens = 200, .output_tokens = 1}});
  auto r = find_max_rate(t, test_service(1), Placement{test_gpu(), 1}, SimOptions{}, {.tolerance = 0.01});
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_DOUBLE_EQ(r->trace_rate_rps, 0.2);
  EXPECT_LE(r->max_rate_rps, 2 / 1.0095 + 1e-6);
  EXPECT_GE(r->max_rate_rps, 2 / 1.0095 / 1.01);
  // Bracketing from 1x: 1, 2, 4, 8 met, 16 failed; then bisection in [8, 16] to 1%.
  ASSERT_GE(r->probes.size(), 5u);
  EXPECT_TRUE(r->probes[3].slo_met);
  EXPECT_FALSE(r->probes[4].slo_met);
  EXPECT_LE(r->probes.size(), 12u);
}

RequestTrace steady_trace(int n, int64_t gap_us) {
  std::vector<Request> reqs;
  for (int i = 0; i < n; ++i) {
    reqs.push_back({.arrival_us = i * gap_us, .input_tokens = 200, .output_tokens = 4});
  }
  return trace_of(std::move(reqs));
}

TEST(MaxRateTest, MoreReplicasServeMore) {
  const RequestTrace t = steady_trace(60, 5'000'000);
  double last = 0;
  for (int32_t replicas : {1, 2, 4}) {
    auto r = find_max_rate(t, test_service(replicas), Placement{test_gpu(), 4}, SimOptions{});
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    EXPECT_GT(r->max_rate_rps, last * 1.3) << replicas << " replicas";
    last = r->max_rate_rps;
  }
}

TEST(MaxRateTest, AutoscalerIsPinnedAtItsMaximum) {
  const RequestTrace t = steady_trace(60, 5'000'000);
  ServiceSpec scaling = test_service(2);
  scaling.autoscaler.kind = AutoscalerKind::kReactive;
  auto a = find_max_rate(t, scaling, Placement{test_gpu(), 4}, SimOptions{});
  auto b = find_max_rate(t, test_service(2), Placement{test_gpu(), 4}, SimOptions{});
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  EXPECT_EQ(a->replicas, 2);
  EXPECT_DOUBLE_EQ(a->max_rate_rps, b->max_rate_rps);
}

TEST(MaxRateTest, RefusesATraceWithoutARate) {
  const RequestTrace t = trace_of({{.arrival_us = 0, .input_tokens = 200, .output_tokens = 1}});
  auto r = find_max_rate(t, test_service(1), Placement{test_gpu(), 1}, SimOptions{});
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("span no time"), std::string::npos);
}

}  // namespace
}  // namespace boreas::serving

namespace boreas::serving {
namespace {

TEST(TraceWindowTest, KeepsTheWindowsRequestsFromItsStart) {
  RequestTrace t;
  t.requests = {{.arrival_us = 0}, {.arrival_us = 5'000'000}, {.arrival_us = 10'000'000}, {.arrival_us = 15'000'000}};
  auto w = trace_window(t, 5, 15, "t.csv");
  ASSERT_TRUE(w.is_ok());
  ASSERT_EQ(w->requests.size(), 2u);  // 5 s and 10 s; 15 s is past the end
  EXPECT_EQ(w->requests[0].arrival_us, 0);
  EXPECT_EQ(w->requests[1].arrival_us, 5'000'000);
  auto empty = trace_window(t, 20, 30, "t.csv");
  ASSERT_FALSE(empty.is_ok());
  EXPECT_NE(empty.status().message().find("t.csv: the window 20:30 s holds 0 requests"), std::string::npos)
      << empty.status().message();
}

}  // namespace
}  // namespace boreas::serving
