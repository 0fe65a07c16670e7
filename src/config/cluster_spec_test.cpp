// Node-group expansion: names, racks, leaves, spines, dense GPU ids, units.
#include <gtest/gtest.h>

#include "config/cluster_spec.h"

namespace boreas::config {
namespace {

const char* kSpec = R"(name: small
fabric:
  nvlink: {bandwidth_gbps: 450, latency_us: 2}
  leaf: {bandwidth_gbps: 50, latency_us: 1.4}
  spine: {bandwidth_gbps: 25}
  racks_per_spine: 2
zones:
  - {name: liquid, cooling: direct-liquid, inlet_c: 35, pue: 1.15, power_cap_kw: 500}
  - {name: air, spot: true}
rack_defaults: {nodes_per_rack: 2, power_kw: 17, cooling_kw: 15}
groups:
  - {name: h, count: 5, gpu: H100-SXM, gpus_per_node: 8, zone: liquid, cpus: 192, memory_gib: 2048, rack_power_kw: 40}
  - {name: t, count: 3, gpu: T4, gpus_per_node: 2, nodes_per_rack: 3, zone: air, cpus: 8.5, memory_gib: 0.5}
  - {name: c, count: 1, gpus_per_node: 0, zone: air, cpus: 4, memory_gib: 8}
)";

Cluster load() {
  Result<Cluster> r = load_cluster_string(kSpec, "small.yaml");
  EXPECT_TRUE(r.is_ok()) << (r.is_ok() ? "" : r.status().message());
  return r.is_ok() ? std::move(r).value() : Cluster{};
}

TEST(ClusterSpec, ExpandsGroupsIntoRacksAndNodes) {
  const Cluster c = load();
  EXPECT_EQ(c.name, "small");
  // h: 5 nodes at 2 per rack -> 3 racks (2, 2, 1); t: 3 at 3 -> 1 rack; c: 1 at 2 -> 1 rack.
  ASSERT_EQ(c.racks.size(), 5u);
  ASSERT_EQ(c.nodes.size(), 9u);
  EXPECT_EQ(c.racks[0].name, "h-r00");
  EXPECT_EQ(c.racks[2].name, "h-r02");
  EXPECT_EQ(c.racks[3].name, "t-r00");
  EXPECT_EQ(c.nodes[0].name, "h-r00-n00");
  EXPECT_EQ(c.nodes[3].name, "h-r01-n01");
  EXPECT_EQ(c.nodes[4].name, "h-r02-n00");
  EXPECT_EQ(c.nodes[7].name, "t-r00-n02");
  EXPECT_EQ(c.nodes[8].name, "c-r00-n00");
  EXPECT_EQ(c.nodes[4].rack.value(), 2u);
  EXPECT_EQ(c.gpu_count(), 5u * 8 + 3 * 2);
}

TEST(ClusterSpec, GpuIdsAreDenseAndNodeOrdered) {
  const Cluster c = load();
  uint32_t next = 0;
  for (const auto& n : c.nodes) {
    EXPECT_EQ(n.first_gpu, next) << n.name;
    next += n.gpu_count;
  }
  EXPECT_EQ(c.nodes[5].first_gpu, 40u);
  EXPECT_FALSE(c.nodes[8].gpu_type.has_value());
  EXPECT_EQ(c.nodes[8].gpu_count, 0u);
}

TEST(ClusterSpec, LeavesAreRacksAndSpinesGroupThem) {
  const Cluster c = load();
  for (uint32_t i = 0; i < c.racks.size(); ++i) {
    EXPECT_EQ(c.racks[i].leaf, i);
    EXPECT_EQ(c.racks[i].spine, i / 2);  // racks_per_spine: 2
  }
}

TEST(ClusterSpec, UnitsDefaultsAndOverrides) {
  const Cluster c = load();
  EXPECT_EQ(c.nodes[0].cpu_milli, 192000);
  EXPECT_EQ(c.nodes[0].memory_mib, 2048 * 1024);
  EXPECT_EQ(c.nodes[5].cpu_milli, 8500);
  EXPECT_EQ(c.nodes[5].memory_mib, 512);
  EXPECT_TRUE(c.nodes[0].nvlink);              // H100-SXM has NVLink: default on
  EXPECT_FALSE(c.nodes[5].nvlink);             // T4 is PCIe only
  EXPECT_EQ(c.racks[0].power_limit_kw, 40);    // group override
  EXPECT_EQ(c.racks[0].cooling_limit_kw, 15);  // rack_defaults
  EXPECT_EQ(c.racks[3].power_limit_kw, 17);
}

TEST(ClusterSpec, ZonesAndFabric) {
  const Cluster c = load();
  ASSERT_EQ(c.zones.size(), 2u);
  EXPECT_EQ(c.zones[0].cooling, CoolingKind::kDirectLiquid);
  EXPECT_EQ(c.zones[0].pue, 1.15);
  EXPECT_EQ(c.zones[0].power_cap_kw, 500);
  EXPECT_EQ(c.zones[1].cooling, CoolingKind::kAir);
  EXPECT_TRUE(c.zones[1].spot);
  EXPECT_EQ(c.zone_of(c.nodes[5]).name, "air");
  ASSERT_EQ(c.fabric.size(), 3u);
  EXPECT_EQ(c.fabric[0].name, "nvlink");
  EXPECT_EQ(c.fabric[1].latency, Duration::micros(1));  // 1.4 us rounds to whole microseconds
  EXPECT_EQ(c.fabric[2].bandwidth_gbps, 25);
  EXPECT_EQ(c.fabric[2].latency, Duration::zero());
}

TEST(ClusterSpec, NameWidthGrowsWithCount) {
  Result<Cluster> r = load_cluster_string(
      "name: w\ngroups:\n  - {name: g, count: 101, gpus_per_node: 0, nodes_per_rack: 1, cpus: 1, memory_gib: "
      "1}\n",
      "w.yaml");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->racks[0].name, "g-r000");
  EXPECT_EQ(r->nodes[100].name, "g-r100-n00");
  EXPECT_EQ(r->zones.size(), 1u);  // no zones: one default air zone
  EXPECT_EQ(r->zones[0].name, "default");
}

}  // namespace
}  // namespace boreas::config
