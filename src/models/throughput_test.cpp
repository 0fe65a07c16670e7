#include "models/throughput.h"

#include <gtest/gtest.h>

namespace boreas::models {
namespace {

GpuType gpu(std::string name, double bf16, double bw) {
  GpuType t;
  t.name = std::move(name);
  t.bf16_tflops = bf16;
  t.memory_bandwidth_gbps = bw;
  return t;
}

const GpuType kH100 = gpu("H100-SXM", 989, 3350);
const GpuType kA100 = gpu("A100-80G", 312, 2039);
const GpuType kV100 = gpu("V100-16G", 125, 900);  // no MAMF row: default 0.8 → 100 TFLOPS

TEST(Throughput, DefaultsAreValid) {
  EXPECT_TRUE(validate(default_throughput_params()).is_ok());
}

TEST(Throughput, EffectiveTflopsUseMamf) {
  const ThroughputModel m(default_throughput_params());
  EXPECT_NEAR(m.effective_tflops(kH100), 794.5, 1e-9);
  EXPECT_NEAR(m.effective_tflops(kA100), 271.2, 1e-9);
  EXPECT_NEAR(m.effective_tflops(kV100), 100.0, 1e-9);
}

TEST(Throughput, AnchorRunsAtRateOne) {
  const ThroughputModel m(default_throughput_params());
  EXPECT_NEAR(m.rate(m.class_index("cnn-training"), kH100), 1.0, 1e-12);
}

// transformer-training, share 0.85 on the anchor:
// V100 time = 0.85 × 794.5/100 + 0.15 × 3350/900 = 6.753250 + 0.558333 = 7.311583.
TEST(Throughput, TransformerV100ToH100ByHand) {
  const ThroughputModel m(default_throughput_params());
  EXPECT_NEAR(m.relative_speed("transformer-training", kV100, kH100), 7.311583, 1e-5);
  EXPECT_NEAR(m.relative_speed("transformer-training", kH100, kV100), 1 / 7.311583, 1e-7);
}

// llm-inference, share 0.15: A100 time = 0.15 × 794.5/271.2 + 0.85 × 3350/2039
// = 0.439436 + 1.396518 = 1.835954, i.e. H100 ≈ 1.84× A100 (FACTS §6.2 observes ≈ 2×).
TEST(Throughput, InferenceA100ToH100ByHand) {
  const ThroughputModel m(default_throughput_params());
  EXPECT_NEAR(m.relative_speed("llm-inference", kA100, kH100), 1.835954, 1e-5);
}

TEST(Throughput, SpeedsCompose) {
  const ThroughputModel m(default_throughput_params());
  const double ab = m.relative_speed("recsys-training", kV100, kA100);
  const double bc = m.relative_speed("recsys-training", kA100, kH100);
  EXPECT_NEAR(ab * bc, m.relative_speed("recsys-training", kV100, kH100), 1e-12);
}

TEST(Throughput, UnknownOrEmptyClassUsesDefault) {
  const ThroughputModel m(default_throughput_params());
  EXPECT_EQ(m.class_index(""), m.class_index("default"));
  EXPECT_EQ(m.class_index("no-such-class"), m.class_index("default"));
  EXPECT_EQ(m.class_index("CNN-Training"), m.class_index("cnn-training"));
}

// Half clock doubles only the compute-bound part: transformer on H100 at clock 0.5:
// time = 0.85 / 0.5 + 0.15 = 1.85.
TEST(Throughput, ClockScalesComputeShareOnly) {
  const ThroughputModel m(default_throughput_params());
  EXPECT_NEAR(m.rate(m.class_index("transformer-training"), kH100, 0.5), 1 / 1.85, 1e-12);
}

TEST(Throughput, TableMatchesTheModelWithoutStringLookups) {
  const ThroughputModel m(default_throughput_params());
  GpuCatalog catalog;
  ASSERT_TRUE(catalog.add(kV100));
  ASSERT_TRUE(catalog.add(kH100));
  ASSERT_TRUE(catalog.add(gpu("CPU-ONLY", 0, 0)));
  const ThroughputTable table(m, catalog);
  EXPECT_EQ(table.classes(), m.params().classes.size());
  EXPECT_EQ(table.types(), 3u);
  const size_t tr = m.class_index("transformer-training");
  EXPECT_NEAR(table.rate(tr, GpuTypeId(0)), 1 / 7.311583, 1e-7);
  EXPECT_NEAR(table.rate(tr, GpuTypeId(1)), 1.0, 1e-12);
  EXPECT_NEAR(table.rate(tr, GpuTypeId(1), 0.5), 1 / 1.85, 1e-12);
  EXPECT_NEAR(table.rate(tr, GpuTypeId(0), 0.7), m.rate(tr, kV100, 0.7), 1e-12);
  EXPECT_EQ(table.rate(tr, GpuTypeId(2)), 0.0);
}

TEST(Throughput, ValidationNamesTheProblem) {
  ThroughputParams p = default_throughput_params();
  p.classes[0].compute_share = 1.5;
  EXPECT_NE(validate(p).message().find("transformer-training"), std::string::npos);
  p = default_throughput_params();
  p.default_class = "missing";
  EXPECT_NE(validate(p).message().find("missing"), std::string::npos);
  EXPECT_FALSE(validate_for_throughput(gpu("G9", 0, 100)).is_ok());
  EXPECT_TRUE(validate_for_throughput(kV100).is_ok());
}

}  // namespace
}  // namespace boreas::models
