// Queue specs: tree order, quotas, and every validation error with its location.
#include <gtest/gtest.h>

#include "config/cluster_spec.h"

namespace boreas::config {
namespace {

const Cluster& peer64() {
  static const Cluster c = [] {
    Result<Cluster> r = load_cluster_file(std::string(BOREAS_SOURCE_DIR) + "/examples/clusters/peer-64.yaml");
    EXPECT_TRUE(r.is_ok());
    return r.is_ok() ? std::move(r).value() : Cluster{};
  }();
  return c;
}

std::string error_of(const std::string& yaml) {
  Result<QueueTree> r = load_queues_string(yaml, "q.yaml", peer64());
  return r.is_ok() ? "(loaded without error)" : r.status().message();
}

std::vector<std::string> warnings_of(const std::string& yaml) {
  std::vector<Warning> warnings;
  Result<QueueTree> r = load_queues_string(yaml, "q.yaml", peer64(), &warnings);
  EXPECT_TRUE(r.is_ok()) << (r.is_ok() ? "" : r.status().message());
  std::vector<std::string> out;
  for (const auto& w : warnings) {
    out.push_back(w.message);
  }
  return out;
}

TEST(QueueSpec, ParentsPrecedeChildrenAndQuotasUseCanonicalNames) {
  std::vector<Warning> warnings;
  Result<QueueTree> r = load_queues_file(
      std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/config/queues.yaml", peer64(), &warnings);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_TRUE(warnings.empty());
  const QueueTree& t = *r;
  ASSERT_EQ(t.queues.size(), 4u);
  EXPECT_EQ(t.queues[0].name, "org");
  EXPECT_EQ(t.queues[1].name, "research");
  EXPECT_EQ(t.queues[2].name, "prodq");
  EXPECT_EQ(t.queues[3].name, "vision");
  EXPECT_FALSE(t.parent[0].has_value());
  EXPECT_EQ(t.parent[1], QueueId(0));
  EXPECT_EQ(t.parent[3], QueueId(1));
  EXPECT_EQ(t.queues[1].weight, 2);
  ASSERT_EQ(t.queues[1].quotas.size(), 1u);
  EXPECT_EQ(t.queues[1].quotas[0].gpu_type, "V100-16G");
  EXPECT_EQ(t.queues[1].quotas[0].guaranteed, 32u);
  EXPECT_EQ(t.queues[1].quotas[0].borrow_limit, 16u);
  EXPECT_FALSE(t.queues[1].quotas[0].lend_limit.has_value());
  EXPECT_EQ(t.queues[2].quotas[0].lend_limit, 8u);
  EXPECT_EQ(t.queues[0].quotas[0].gpu_type, "*");
  ASSERT_EQ(t.priority_classes.size(), 2u);
  EXPECT_FALSE(t.priority_classes[0].preemptible);
  EXPECT_TRUE(t.priority_classes[1].preemptible);
  EXPECT_EQ(t.priority_classes[1].value, 10);
}

TEST(QueueErrors, DuplicateQueueName) {
  EXPECT_EQ(error_of("queues:\n  - {name: a}\n  - {name: a}\n"),
            "q.yaml:3:5: duplicate queue name 'a'; give each queue its own name");
}

TEST(QueueErrors, MissingParentSuggestsClosest) {
  EXPECT_EQ(error_of("queues:\n  - {name: research}\n  - {name: vision, parent: reserch}\n"),
            "q.yaml:3:28: parent queue 'reserch' of queue 'vision' does not exist; did you mean 'research'?");
  EXPECT_EQ(error_of("queues:\n  - {name: research}\n  - {name: vision, parent: zzz}\n"),
            "q.yaml:3:28: parent queue 'zzz' of queue 'vision' does not exist; define it, or remove 'parent' "
            "to make "
            "this a root queue");
}

TEST(QueueErrors, Cycles) {
  EXPECT_EQ(
      error_of("queues:\n  - {name: a, parent: b}\n  - {name: b, parent: a}\n"),
      "q.yaml:2:23: queue 'a' is in a parent cycle: a -> b -> a; remove 'parent' from one queue of the cycle "
      "to make it a root");
  EXPECT_EQ(
      error_of("queues:\n  - {name: a, parent: a}\n"),
      "q.yaml:2:23: queue 'a' is in a parent cycle: a -> a; remove 'parent' from one queue of the cycle to "
      "make it a root");
  // 'x' hangs below the cycle b -> c -> b without being on it; the cycle is reported at b.
  EXPECT_EQ(
      error_of("queues:\n  - {name: x, parent: b}\n  - {name: b, parent: c}\n  - {name: c, parent: b}\n"),
      "q.yaml:3:23: queue 'b' is in a parent cycle: b -> c -> b; remove 'parent' from one queue of the cycle "
      "to make it a root");
}

TEST(QueueErrors, UnknownGpuTypeInQuota) {
  EXPECT_EQ(
      error_of("queues:\n  - {name: a, quotas: [{gpu: V100-61G, guaranteed: 1}]}\n"),
      "q.yaml:2:30: unknown GPU type 'V100-61G' in a quota of queue 'a'; did you mean 'V100-16G'? use '*' or "
      "one of: H100-SXM, H100-PCIe, H200, B200, A100-40G, A100-80G, A30, L4, T4, V100-16G, V100-32G, MI300X, "
      "P100, A10, G2, G3");
}

TEST(QueueErrors, UnknownPriorityClass) {
  EXPECT_EQ(
      error_of(
          "priority_classes: [{name: prod, value: 1}]\nqueues:\n  - {name: a, priority_classes: [prdo]}\n"),
      "q.yaml:3:34: queue 'a' allows unknown priority class 'prdo'; did you mean 'prod'?");
}

TEST(QueueErrors, DuplicatePriorityClass) {
  EXPECT_EQ(error_of("priority_classes: [{name: p, value: 1}, {name: p, value: 2}]\nqueues: []\n"),
            "q.yaml:1:48: duplicate priority class name 'p'; give each priority class its own name");
}

TEST(QueueErrors, MissingKeys) {
  EXPECT_EQ(error_of("priority_classes: []\n"),
            "q.yaml:1:1: queue spec is missing required key 'queues'; add 'queues:' with at least one queue");
  EXPECT_EQ(error_of("priority_classes: [{name: p}]\nqueues: []\n"),
            "q.yaml:1:20: priority class 'p' is missing required key 'value'; add 'value: ...'");
  EXPECT_EQ(error_of("queues:\n  - {weight: 1}\n"),
            "q.yaml:2:5: queue is missing required key 'name'; add 'name: ...'");
}

TEST(QueueErrors, WrongTypesAndNegativeNumbers) {
  EXPECT_EQ(error_of("queues:\n  - {name: a, weight: heavy}\n"),
            "q.yaml:2:23: 'weight' in queue 'a' must be a number, got 'heavy'; write a number such as 1.5");
  EXPECT_EQ(error_of("queues:\n  - {name: a, weight: 0}\n"),
            "q.yaml:2:23: 'weight' in queue 'a' must be greater than zero, got '0'; use a positive number");
  EXPECT_EQ(
      error_of("queues:\n  - {name: a, quotas: [{gpu: T4, guaranteed: -1}]}\n"),
      "q.yaml:2:46: 'guaranteed' in a quota of queue 'a' must be zero or more, got '-1'; use 0 or a positive "
      "whole number");
  EXPECT_EQ(error_of("queues:\n  - {name: a, quotas: {gpu: T4}}\n"),
            "q.yaml:2:23: 'quotas' must be a list, got a mapping; write one '- ' item per line or [a, b]");
}

TEST(QueueErrors, UnknownKey) {
  EXPECT_EQ(error_of("queues:\n  - {name: a, wieght: 2}\n"),
            "q.yaml:2:15: unknown key 'wieght' in queue; did you mean 'weight'?");
}

TEST(QueueWarnings, GuaranteesAboveCapacity) {
  EXPECT_EQ(warnings_of("queues:\n  - {name: a, quotas: [{gpu: V100-16G, guaranteed: 40}]}\n"
                        "  - {name: b, quotas: [{gpu: V100-16G, guaranteed: 30}]}\n"),
            std::vector<std::string>{
                "q.yaml:3:24: guaranteed V100-16G GPUs of the root queues reach 70 at queue 'b', "
                "above the cluster's 64; lower the guarantees; the excess can never be honoured"});
  EXPECT_EQ(
      warnings_of(
          "queues:\n  - {name: r}\n  - {name: a, parent: r, quotas: [{gpu: H100-SXM, guaranteed: 8}]}\n"),
      std::vector<std::string>{
          "q.yaml:3:35: guaranteed H100-SXM GPUs of the children of 'r' reach 8 at queue "
          "'a', above the cluster's 0; lower the guarantees; the excess can never be "
          "honoured"});
  EXPECT_TRUE(warnings_of("queues:\n  - {name: a, quotas: [{gpu: '*', guaranteed: 64}]}\n").empty());
}

}  // namespace
}  // namespace boreas::config
