#include "models/failure.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace boreas::models {
namespace {

TEST(Failure, Llama3DefaultsGiveOneInterruptionPer50700GpuHours) {
  const FailureParams p = llama3_failure_params();
  // By cause (FACTS §4.1 table): 262 GPU-hardware → 16384 × 1296 / 262 = 81,044 h per GPU;
  // 53 host-hardware → 2048 × 1296 / 53 = 50,079 h per 8-GPU host; 104 job-only → 204,170 h.
  EXPECT_NEAR(p.gpu_mtbf_hours, 81044, 1.0);
  EXPECT_NEAR(p.node_mtbf_hours, 50079, 1.0);
  EXPECT_NEAR(p.job_only_mtbf_hours, 204170, 1.0);
  // Whole 16,384-GPU job: 54 × 24 / 419 = 3.093 h.
  EXPECT_NEAR(job_mtbf_hours(p, 16384, 2048), 3.093, 0.001);
  EXPECT_TRUE(validate(p).is_ok());
}

TEST(Failure, HostSizeKeepsThePerGpuRate) {
  const FailureParams p4 = llama3_failure_params(4);
  EXPECT_NEAR(job_mtbf_hours(p4, 16384, 4096), 3.093, 0.001);
}

TEST(Failure, RejectsNonPositiveMtbfWithTheField) {
  FailureParams p = llama3_failure_params();
  p.node_mtbf_hours = 0;
  const Status s = validate(p);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("node_mtbf_hours"), std::string::npos);
}

// Issue 5 "must show": one interruption per ~3.1 h at 16,384 GPUs, within 10%. 20,000 draws
// give a relative standard error of 1/√20000 ≈ 0.7%, so 10% is > 14 standard errors.
TEST(Failure, SimulatedLlama3JobIsInterruptedEvery3Point1Hours) {
  const FailureProcess process = job_failure_process(llama3_failure_params(), 16384, 2048);
  Rng rng(42);
  const double interval_h = simulated_failure_interval_hours(process, 20000, rng);
  EXPECT_NEAR(interval_h, 3.1, 0.31);
  EXPECT_NEAR(interval_h, 3.093, 0.093);  // in fact within 3%
}

// 262 of 419 = 62.5% of failures hit a GPU component (indexes below 16,384), 53 of 419 = 12.6% a
// host (the next 2,048) and 104 of 419 = 24.8% are job-only (the last 16,384). ±0.02 is over 4
// standard errors of 10,000 draws.
TEST(Failure, ShareOfFailuresByCauseMatchesLlama3) {
  const FailureProcess process = job_failure_process(llama3_failure_params(), 16384, 2048);
  Rng rng(43);
  int gpu = 0;
  int host = 0;
  for (int i = 0; i < 10000; ++i) {
    const uint32_t c = process.next(rng)->component;
    gpu += c < 16384 ? 1 : 0;
    host += c >= 16384 && c < 16384 + 2048 ? 1 : 0;
  }
  EXPECT_NEAR(gpu / 10000.0, 262.0 / 419, 0.02);
  EXPECT_NEAR(host / 10000.0, 53.0 / 419, 0.02);
}

TEST(Failure, PicksComponentsInProportionToTheirRates) {
  FailureProcess process;
  process.add(3.0);  // rate 1/3
  process.add(1.0);  // rate 1
  Rng rng(7);
  int second = 0;
  for (int i = 0; i < 10000; ++i) {
    second += process.next(rng)->component == 1 ? 1 : 0;
  }
  EXPECT_NEAR(second / 10000.0, 0.75, 0.02);
}

TEST(Failure, DisabledComponentsDoNotFail) {
  FailureProcess process;
  process.add(1.0);
  process.add(1.0);
  process.set_enabled(0, false);
  EXPECT_DOUBLE_EQ(process.total_rate_per_hour(), 1.0);
  Rng rng(1);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(process.next(rng)->component, 1u);
  }
  process.set_enabled(1, false);
  EXPECT_FALSE(process.next(rng).has_value());
}

// Rates 1, 2, 3, 4, 5 per hour with the third disabled: the others fail in proportion r / 12.
TEST(Failure, DrawsFollowRatesAfterDisabling) {
  FailureProcess process;
  for (int r = 1; r <= 5; ++r) {
    process.add(1.0 / r);
  }
  process.set_enabled(2, false);
  EXPECT_NEAR(process.total_rate_per_hour(), 12.0, 1e-12);
  Rng rng(17);
  std::vector<int> count(5, 0);
  constexpr int kDraws = 60000;
  for (int i = 0; i < kDraws; ++i) {
    ++count[process.next(rng)->component];
  }
  EXPECT_EQ(count[2], 0);
  for (int c : {0, 1, 3, 4}) {
    EXPECT_NEAR(count[c] / double(kDraws), (c + 1) / 12.0, 0.01) << c;
  }
  process.set_enabled(2, true);
  EXPECT_NEAR(process.total_rate_per_hour(), 15.0, 1e-12);
}

TEST(Failure, SameSeedSameDraws) {
  FailureProcess process;
  process.add(10.0);
  Rng a(99);
  Rng b(99);
  EXPECT_EQ(process.next(a)->after, process.next(b)->after);
}

TEST(Failure, RepairMeanMatchesParams) {
  FailureParams p = llama3_failure_params();
  Rng rng(3);
  double total = 0;
  for (int i = 0; i < 20000; ++i) {
    total += duration_to_hours(draw_repair(p, ComponentKind::kNode, rng));
  }
  EXPECT_NEAR(total / 20000, p.node_repair_hours, 0.1);
}

}  // namespace
}  // namespace boreas::models
