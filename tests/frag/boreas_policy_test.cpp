// The two terms `boreas` adds to FGD's score (docs/fragmentation.md, "Beating FGD"), each on a
// two-node case computed by hand (the arithmetic is in the comments): where FGD takes one node and
// the term sends the pod to the other, so each test fails if its term is switched off.

#include <gtest/gtest.h>

#include <vector>

#include "frag/builders.h"
#include "frag/fragmentation.h"
#include "frag/policy.h"
#include "frag/type_pressure.h"

namespace boreas::frag {
namespace {

using builders::node;
using builders::pod;

int choose(Policy policy, const std::vector<Node>& nodes, const PodShape& p, const std::vector<TaskClass>& mix,
           BoreasDesign design = {}) {
  Placer placer(policy, mix, 1, design);
  std::vector<double> frag;
  for (const auto& n : nodes) {
    frag.push_back(node_frag(n, mix, placer.measure()));
  }
  return placer.choose(nodes, frag, p).node;
}

// Half-GPU pods that accept only type 0 (R) and whole-GPU pods of any type (U), half each, 1 CPU
// apiece. Node A (type 0): GPUs [500, 1000]; node B (type 1): GPUs [1000, 1000]; 64 CPUs each.
std::vector<TaskClass> restricted_mix() {
  return {{pod(1000, 1, 500, TypeMask{1} << 0), 0.5}, {pod(1000, 1, 1000), 0.5}};
}
std::vector<Node> two_types() { return {node(64000, {500, 1000}, 0), node(64000, {1000, 1000}, 1)}; }

TEST(BoreasTypePressure, RestrictedDemandPerGpuOfItsType) {
  // Capacity 2000 milli per type, 4000 in all; the mix asks 0.5·500 + 0.5·1000 = 750 milli per pod,
  // R's share 250/750. At 100 % arrived R wants 4000/3 = 1333.3 milli, all of it on type 0:
  // pressure 1333.3/2000 = 0.667 on type 0, none on type 1.
  const TypePressure tp = type_pressure(restricted_mix(), two_types());
  EXPECT_NEAR(tp.pressure[0], 2.0 / 3.0, 1e-9);
  EXPECT_DOUBLE_EQ(tp.pressure[1], 0.0);
  // Nothing arrived yet, 1500 milli of type 0 idle (A's 500 + 1000): 1333.3/1500 = 0.889. Once half
  // the capacity has arrived, half of R's demand is still to come: 666.7/1500 = 0.444.
  const TypePressure now = pressure_now(tp, two_types(), 0.0);
  EXPECT_NEAR(now.pressure[0], 1333.333 / 1500.0, 1e-6);
  EXPECT_DOUBLE_EQ(now.pressure[1], 0.0);
  EXPECT_NEAR(pressure_now(tp, two_types(), 2000.0).pressure[0], 666.667 / 1500.0, 1e-6);
  // An any-type share on A displaces 500·0.889 = 444.4 milli of R's demand; on B (the least pressed
  // type it accepts) nothing; R's own pods displace nothing on A, their only type.
  const PodShape share = pod(1000, 1, 500);
  EXPECT_NEAR(displaced_milli(share, two_types()[0], now), 444.444, 1e-3);
  EXPECT_DOUBLE_EQ(displaced_milli(share, two_types()[1], now), 0.0);
  EXPECT_DOUBLE_EQ(displaced_milli(pod(1000, 1, 500, TypeMask{1} << 0), two_types()[0], now), 0.0);
}

TEST(BoreasTypePressure, AnyTypeShareLeavesTheRestrictedTypeAlone) {
  // An any-type half GPU. FGD on A: before, R fits with no fragment and U's fragment is the 500 GPU:
  // 0.5·500 = 250; after the share on the 500 GPU ([0, 1000]) nothing: +250, 100·sigmoid(0.25) = 56.
  // On B: before, R sees all 2000 idle as fragment (wrong type): 1000; after ([500, 1000]) R 1500
  // and U 500: 0.5·1500 + 0.5·500 = 1000: +0, 50. FGD takes A.
  // boreas adds the 444.4 milli displaced on A: 250 − 444.4 = −194.4, 100·sigmoid(−0.194) = 45 < 50:
  // B. Neither node strands GPU by CPU (64 CPUs serve 48 GPUs at the mix's 1.33 CPU per GPU).
  const PodShape share = pod(1000, 1, 500);
  EXPECT_EQ(choose(Policy::kFgd, two_types(), share, restricted_mix()), 0);
  EXPECT_EQ(choose(Policy::kBoreas, two_types(), share, restricted_mix()), 1);
  BoreasDesign without;
  without.type_pressure = false;
  EXPECT_EQ(choose(Policy::kBoreas, two_types(), share, restricted_mix(), without), 0);
  // The scores, through the public pieces: 56 and 45 on A, 50 on B (× 101 for FGD's points first).
  FragMemo fgd(restricted_mix(), Measure::kStranded);
  FragMemo cpu(restricted_mix(), Measure::kCpuAware);
  EXPECT_EQ(score_fgd(two_types()[0], share, 250.0, fgd).score, 56);
  EXPECT_EQ(score_fgd(two_types()[0], share, 250.0, fgd, 444.444).score, 45);
  EXPECT_EQ(score_fgd(two_types()[1], share, 1000.0, fgd).score, 50);
}

// S: a GPU and 2 CPUs, L: a GPU and 14 CPUs (40 % each), T: 2 GPUs and 2 CPUs (20 %). The GPU pods
// ask 0.4·2 + 0.4·14 + 0.2·2 = 6.8 CPUs for 0.4 + 0.4 + 0.4 = 1.2 GPUs: 5.667 CPUs per GPU.
std::vector<TaskClass> cpu_mix() {
  return {{pod(2000, 1, 1000), 0.4}, {pod(14000, 1, 1000), 0.4}, {pod(2000, 2, 1000), 0.2}};
}

TEST(BoreasStranded, GpuTheCpuLeftCannotServe) {
  EXPECT_NEAR(cpu_per_gpu_milli(cpu_mix()), 6800.0 / 1200.0, 1e-9);
  // 4 idle GPUs and 16 CPUs: 16/5.667 = 2.82 GPUs served, 1176.5 milli stranded.
  EXPECT_NEAR(cpu_stranded(node(16000, {1000, 1000, 1000, 1000}), 6800.0 / 1200.0), 4000.0 - 16000.0 * 1200 / 6800,
              1e-9);
  EXPECT_DOUBLE_EQ(cpu_stranded(node(64000, {0, 0, 0, 1000}), 6800.0 / 1200.0), 0.0);
  // kStranded is FGD's measure plus that, once per node.
  const Node a = node(16000, {1000, 1000, 1000, 1000});
  EXPECT_NEAR(node_frag(a, cpu_mix(), Measure::kStranded), node_frag(a, cpu_mix()) + 1176.4706, 1e-3);
}

TEST(BoreasStranded, AGpuPodGoesWhereTheCpuIsShort) {
  // A pod of one GPU and 2 CPUs. A: 4 idle GPUs, 16 CPUs. B: one idle GPU of 4, 64 CPUs.
  // FGD on A: every class fits before and after ([0,1,1,1], 14 CPUs, L still fits): 0 -> 0, 50.
  // FGD on B: T cannot fit its one idle GPU: 0.2·1000 = 200; after, no idle GPU: 0; +200, 54. FGD: B.
  // Stranded on A: 1176.5 before; after, 3 idle GPUs and 14 CPUs serve 2.47: 529.4; +647.1,
  // 100·sigmoid(0.647) = 65. On B nothing is stranded before or after: still 54. boreas: A.
  const std::vector<Node> nodes = {node(16000, {1000, 1000, 1000, 1000}), node(64000, {0, 0, 0, 1000})};
  const PodShape p = pod(2000, 1, 1000);
  FragMemo fgd(cpu_mix());
  FragMemo stranded(cpu_mix(), Measure::kStranded);
  EXPECT_EQ(score_fgd(nodes[0], p, 0.0, fgd).score, 50);
  EXPECT_EQ(score_fgd(nodes[1], p, 200.0, fgd).score, 54);
  EXPECT_EQ(score_fgd(nodes[0], p, stranded.frag(nodes[0]), stranded).score, 65);
  EXPECT_EQ(score_fgd(nodes[1], p, stranded.frag(nodes[1]), stranded).score, 54);
  EXPECT_EQ(choose(Policy::kFgd, nodes, p, cpu_mix()), 1);
  EXPECT_EQ(choose(Policy::kBoreas, nodes, p, cpu_mix()), 0);
  BoreasDesign without;
  without.stranded = false;
  EXPECT_EQ(choose(Policy::kBoreas, nodes, p, cpu_mix(), without), 1);
}

}  // namespace
}  // namespace boreas::frag
