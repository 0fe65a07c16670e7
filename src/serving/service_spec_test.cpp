// Service specs: the examples load, and mistakes are reported with file:line:col and a fix.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "serving/service_spec.h"

namespace boreas::serving {
namespace {

TEST(ServiceSpecTest, EveryExampleLoads) {
  const auto dir = std::filesystem::path(BOREAS_SOURCE_DIR) / "examples" / "services";
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    auto s = load_service_file(e.path().string());
    EXPECT_TRUE(s.is_ok()) << e.path() << ": " << (s.is_ok() ? "" : s.status().message());
    ++n;
  }
  EXPECT_GE(n, 3);
}

TEST(ServiceSpecTest, ReadsEveryField) {
  const std::string yaml = R"(name: s
model: {params_b: 8, layers: 32, hidden: 4096, kv_bytes_per_token: 131072}
replica: {gpu: L4, tp: 2}
batching: {kind: dynamic, max_batch: 16, window_ms: 50, batch_fixed_ms: 3, batch_per_item_ms: 0.5}
router: prefix
autoscaler: {kind: predictive, min_replicas: 1, max_replicas: 4, interval_s: 5, load_gbps: 4}
slo: {kind: absolute, ttft_s: 1, tbt_s: 0.1, target: 0.9}
)";
  auto s = load_service_string(yaml, "s.yaml");
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  EXPECT_EQ(s->model.params, 8e9);
  EXPECT_EQ(s->tp, 2);
  EXPECT_EQ(s->batching.kind, BatchingKind::kDynamic);
  EXPECT_DOUBLE_EQ(s->batching.window_s, 0.05);
  EXPECT_DOUBLE_EQ(s->batching.batch_per_item_s, 0.0005);
  EXPECT_EQ(s->router, RouterKind::kPrefix);
  EXPECT_EQ(s->autoscaler.kind, AutoscalerKind::kPredictive);
  EXPECT_EQ(s->autoscaler.initial_replicas, 1);
  EXPECT_EQ(s->autoscaler.max_replicas, 4);
  EXPECT_DOUBLE_EQ(s->slo.tbt_s, 0.1);
  EXPECT_EQ(s->slo.kind, SloKind::kAbsolute);
  EXPECT_DOUBLE_EQ(s->slo.target, 0.9);
}

TEST(ServiceSpecTest, SloIsSlowdownUnlessSaidAbsolute) {
  const std::string head = "name: s\nmodel: {params_b: 8, layers: 32, hidden: 4096, kv_bytes_per_token: 1}\n"
                           "replica: {gpu: L4}\n";
  auto plain = load_service_string(head, "s.yaml");
  ASSERT_TRUE(plain.is_ok());
  EXPECT_EQ(plain->slo.kind, SloKind::kSlowdown);
  auto mixed = load_service_string(head + "slo: {ttft_s: 2}\n", "s.yaml");
  ASSERT_FALSE(mixed.is_ok());
  EXPECT_NE(mixed.status().message().find("s.yaml:4:"), std::string::npos) << mixed.status().message();
  EXPECT_NE(mixed.status().message().find("kind: absolute"), std::string::npos);
  auto target = load_service_string(head + "slo: {kind: absolute, target: 1.5}\n", "s.yaml");
  ASSERT_FALSE(target.is_ok());
  EXPECT_NE(target.status().message().find("target is above 1"), std::string::npos);
}

TEST(ServiceSpecTest, MistakesAreLocatedAndExplained) {
  const std::string head = "name: s\nmodel: {params_b: 8, layers: 32, hidden: 4096, kv_bytes_per_token: 1}\n";
  auto bad_router = load_service_string(head + "replica: {gpu: L4}\nrouter: random\n", "s.yaml");
  ASSERT_FALSE(bad_router.is_ok());
  EXPECT_NE(bad_router.status().message().find("s.yaml:4:"), std::string::npos) << bad_router.status().message();
  EXPECT_NE(bad_router.status().message().find("round-robin"), std::string::npos);
  auto order = load_service_string(head + "replica: {gpu: L4}\nautoscaler: {min_replicas: 3, max_replicas: 2}\n",
                                   "s.yaml");
  ASSERT_FALSE(order.is_ok());
  EXPECT_NE(order.status().message().find("min_replicas <= initial_replicas"), std::string::npos);
  auto typo = load_service_string(head + "replica: {gpu: L4, tpp: 2}\n", "s.yaml");
  ASSERT_FALSE(typo.is_ok());
  EXPECT_NE(typo.status().message().find("tpp"), std::string::npos) << typo.status().message();
}

}  // namespace
}  // namespace boreas::serving
