// Every cluster-spec validation error: exact message and file:line:column.
#include <gtest/gtest.h>

#include "config/cluster_spec.h"

namespace boreas::config {
namespace {

std::string error_of(const std::string& yaml) {
  Result<Cluster> r = load_cluster_string(yaml, "c.yaml");
  if (r.is_ok()) {
    return "(loaded without error)";
  }
  return r.status().message();
}

// A one-group spec whose group line (line 3, the '{' at column 5) holds `fields`.
std::string group(const std::string& fields) {
  return "name: x\ngroups:\n  - {" + fields + "}\n";
}

const char* kKnownTypes =
    "H100-SXM, H100-PCIe, H200, B200, A100-40G, A100-80G, A30, L4, T4, V100-16G, V100-32G, MI300X, P100, "
    "A10, G2, "
    "G3";

TEST(ClusterErrors, UnknownTopLevelKeySuggestsClosest) {
  EXPECT_EQ(error_of("name: x\ngrups: []\n"),
            "c.yaml:2:1: unknown key 'grups' in cluster spec; did you mean 'groups'?");
}

TEST(ClusterErrors, UnknownGroupKeySuggestsClosest) {
  EXPECT_EQ(error_of(group("name: a, cout: 2, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, memory_gib: 8")),
            "c.yaml:3:15: unknown key 'cout' in node group; did you mean 'count'?");
}

TEST(ClusterErrors, UnknownKeyWithoutCloseMatchListsAllowedKeys) {
  EXPECT_EQ(error_of("name: x\nzones:\n  - {name: z, colour: red}\n"),
            "c.yaml:3:15: unknown key 'colour' in zone; allowed keys: name, cooling, inlet_c, pue, "
            "power_cap_kw, spot");
}

TEST(ClusterErrors, UnknownGpuTypeSuggestsAndListsKnownTypes) {
  EXPECT_EQ(
      error_of(group("name: a, count: 2, gpu: H100-SMX, gpus_per_node: 8, nodes_per_rack: 1, cpus: 4, "
                     "memory_gib: 8")),
      std::string("c.yaml:3:30: unknown GPU type 'H100-SMX' in group 'a'; did you mean 'H100-SXM'? known "
                  "types: ") +
          kKnownTypes + " (add your own with 'gpu_catalog:')");
}

// Errors inside one node group: each row is (case, the group's fields, exact message).
TEST(ClusterErrors, GroupFieldErrors) {
  struct Case {
    const char* label;
    const char* fields;
    const char* message;
  };
  const Case cases[] = {
      {"DuplicateKey",
       "name: a, count: 1, count: 2, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, memory_gib: 8",
       "c.yaml:3:25: duplicate key 'count' in node group; keep only one"},
      {"ZeroCount", "name: a, count: 0, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, memory_gib: 8",
       "c.yaml:3:22: 'count' in group 'a' must be at least 1, got '0'; use a whole number of 1 or more"},
      {"NegativeCount", "name: a, count: -3, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, memory_gib: 8",
       "c.yaml:3:22: 'count' in group 'a' must be at least 1, got '-3'; use a whole number of 1 or more"},
      {"NegativeGpusPerNode",
       "name: a, count: 1, gpus_per_node: -8, nodes_per_rack: 1, cpus: 4, memory_gib: 8",
       "c.yaml:3:40: 'gpus_per_node' in group 'a' must be zero or more, got '-8'; use 0 or a positive whole "
       "number"},
      {"CountAboveLimit",
       "name: a, count: 100001, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, memory_gib: 8",
       "c.yaml:3:22: 'count' in group 'a' is 100001, above the limit; use at most 100000 nodes per group"},
      {"StringWhereIntegerGoes",
       "name: a, count: sixteen, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, memory_gib: 8",
       "c.yaml:3:22: 'count' in group 'a' must be an integer, got 'sixteen'; write a whole number such as 8"},
      {"StringWhereNumberGoes",
       "name: a, count: 1, gpus_per_node: 0, nodes_per_rack: 1, cpus: many, memory_gib: 8",
       "c.yaml:3:68: 'cpus' in group 'a' must be a number, got 'many'; write a number such as 1.5"},
      {"ListWhereBooleanGoes",
       "name: a, count: 1, gpu: T4, gpus_per_node: 2, nvlink: [yes], nodes_per_rack: 1, cpus: 4, memory_gib: "
       "8",
       "c.yaml:3:60: 'nvlink' in group 'a' must be true or false, got a list; write true or false"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(error_of(group(c.fields)), c.message) << c.label;
  }
}

TEST(ClusterErrors, MissingRequiredKeyPointsAtTheMapping) {
  EXPECT_EQ(error_of(group("name: a, count: 1, gpus_per_node: 0, nodes_per_rack: 1, memory_gib: 8")),
            "c.yaml:3:5: group 'a' is missing required key 'cpus'; add 'cpus: ...'");
  EXPECT_EQ(error_of("groups: []\n"),
            "c.yaml:1:1: cluster spec is missing required key 'name'; add 'name: ...'");
  EXPECT_EQ(error_of("name: x\n"),
            "c.yaml:1:1: cluster spec is missing required key 'groups'; add 'groups:' with at least one node "
            "group");
}

TEST(ClusterErrors, NodesPerRackRequiredWithoutDefault) {
  EXPECT_EQ(error_of(group("name: a, count: 1, gpus_per_node: 0, cpus: 4, memory_gib: 8")),
            "c.yaml:3:5: group 'a' is missing required key 'nodes_per_rack'; add 'nodes_per_rack: ...'");
}

TEST(ClusterErrors, GpuNodesNeedAType) {
  EXPECT_EQ(
      error_of(group("name: a, count: 1, gpus_per_node: 4, nodes_per_rack: 1, cpus: 4, memory_gib: 8")),
      std::string("c.yaml:3:5: group 'a' has 4 GPUs per node but no 'gpu' type; add 'gpu: <type>'; known "
                  "types: ") +
          kKnownTypes);
}

TEST(ClusterErrors, CpuOnlyNodesMustNotNameAType) {
  EXPECT_EQ(
      error_of(
          group("name: a, count: 1, gpu: T4, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, memory_gib: 8")),
      "c.yaml:3:30: group 'a' names GPU type 'T4' but has gpus_per_node 0; remove 'gpu' for CPU-only nodes, "
      "or set gpus_per_node above 0");
}

TEST(ClusterErrors, DuplicateGroupName) {
  const std::string g =
      "  - {name: a, count: 1, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, memory_gib: 8}\n";
  EXPECT_EQ(
      error_of("name: x\ngroups:\n" + g + g),
      "c.yaml:4:12: duplicate node group name 'a'; give each group its own name (node names derive from it)");
}

TEST(ClusterErrors, DuplicateZoneName) {
  EXPECT_EQ(error_of("name: x\nzones:\n  - {name: z}\n  - {name: z}\n"),
            "c.yaml:4:12: duplicate zone name 'z'; give each zone its own name");
}

TEST(ClusterErrors, UnknownZoneSuggestsClosest) {
  EXPECT_EQ(
      error_of("name: x\nzones:\n  - {name: liquid-a}\n  - {name: air-a}\ngroups:\n"
               "  - {name: a, zone: liquid-b, count: 1, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, "
               "memory_gib: 8}\n"),
      "c.yaml:6:21: unknown zone 'liquid-b' in group 'a'; did you mean 'liquid-a'? zones: liquid-a, air-a");
}

TEST(ClusterErrors, ZoneRequiredWhenSeveralExist) {
  EXPECT_EQ(
      error_of("name: x\nzones: [{name: p}, {name: q}]\ngroups:\n"
               "  - {name: a, count: 1, gpus_per_node: 0, nodes_per_rack: 1, cpus: 4, memory_gib: 8}\n"),
      "c.yaml:4:5: group 'a' is missing required key 'zone'; add 'zone: <name>'; zones: p, q");
}

TEST(ClusterErrors, UnknownCoolingListsChoices) {
  EXPECT_EQ(error_of("name: x\nzones:\n  - {name: z, cooling: liquid}\n"),
            "c.yaml:3:24: unknown cooling 'liquid' in zone 'z'; use one of: air, direct-liquid, immersion");
  EXPECT_EQ(error_of("name: x\nzones:\n  - {name: z, cooling: imersion}\n"),
            "c.yaml:3:24: unknown cooling 'imersion' in zone 'z'; did you mean 'immersion'? use one of: air, "
            "direct-liquid, immersion");
}

TEST(ClusterErrors, PueBelowOne) {
  EXPECT_EQ(error_of("name: x\nzones:\n  - {name: z, pue: 0.9}\n"),
            "c.yaml:3:20: 'pue' in zone 'z' must be at least 1.0, got '0.9'; PUE is facility energy over IT "
            "energy; "
            "typical values are 1.1 to 1.8");
}

TEST(ClusterErrors, NegativeFabricBandwidth) {
  EXPECT_EQ(error_of("name: x\nfabric:\n  leaf: {bandwidth_gbps: -5}\n"),
            "c.yaml:3:26: 'bandwidth_gbps' in fabric tier 'leaf' must be greater than zero, got '-5'; use a "
            "positive number");
}

TEST(ClusterErrors, ScalarWhereMappingGoes) {
  EXPECT_EQ(error_of("name: x\ngroups: [5]\n"),
            "c.yaml:2:10: node group must be a mapping, got '5'; write it as 'key: value' lines or {key: "
            "value, ...}");
}

TEST(ClusterErrors, MappingWhereListGoes) {
  EXPECT_EQ(error_of("name: x\ngroups: {a: 1}\n"),
            "c.yaml:2:9: 'groups' must be a list, got a mapping; write one '- ' item per line or [a, b]");
}

TEST(ClusterErrors, EmptyGroups) {
  EXPECT_EQ(error_of("name: x\ngroups: []\n"), "c.yaml:2:9: 'groups' is empty; add at least one node group");
}

TEST(ClusterErrors, EmptyDocument) {
  EXPECT_EQ(
      error_of(""),
      "c.yaml:1:1: cluster spec must be a mapping, got an empty value; write it as 'key: value' lines or "
      "{key: value, ...}");
}

TEST(ClusterErrors, YamlSyntaxErrorCarriesTheParserMark) {
  EXPECT_EQ(error_of("name: x\n  bad: 1\n"),
            "c.yaml:2:6: YAML syntax error: illegal map value; fix the YAML at this position");
  EXPECT_EQ(error_of("name: [x\n"),
            "c.yaml:2:1: YAML syntax error: end of sequence flow not found; fix the YAML at this position");
}

TEST(ClusterErrors, UnreadableFile) {
  Result<Cluster> r = load_cluster_file("/nonexistent/boreas/c.yaml");
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kIo);
  EXPECT_EQ(
      r.status().message(),
      "/nonexistent/boreas/c.yaml: cannot read: No such file or directory; check the path and permissions");
}

TEST(ClusterErrors, DirectoryInsteadOfFile) {
  Result<Cluster> r = load_cluster_file(BOREAS_SOURCE_DIR);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().message(),
            std::string(BOREAS_SOURCE_DIR) + ": cannot read: it is a directory; pass a YAML file");
}

TEST(ClusterErrors, MissingUserCatalog) {
  EXPECT_EQ(
      error_of("name: x\ngpu_catalog: [nope.yaml]\n"),
      "c.yaml:2:15: cannot load GPU catalog 'nope.yaml': nope.yaml: cannot read: No such file or directory; "
      "check the path and permissions; paths are relative to the spec's folder");
}

TEST(ClusterWarnings, RackAboveItsCoolingLimit) {
  // 2 nodes x (8 x 700 W + 500 W + 8 x 200 W) = 15.4 kW against a 15 kW cooling limit.
  std::vector<Warning> warnings;
  Result<Cluster> r = load_cluster_string(
      group("name: h, count: 4, gpu: H100-SXM, gpus_per_node: 8, nodes_per_rack: 2, cpus: 4, memory_gib: 8, "
            "rack_cooling_kw: 15"),
      "c.yaml", &warnings);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].message,
            "c.yaml:3:5: racks of group 'h' draw up to 15.4 kW, above their cooling limit of 15.0 kW; lower "
            "nodes_per_rack or raise the limit");
}

}  // namespace
}  // namespace boreas::config
