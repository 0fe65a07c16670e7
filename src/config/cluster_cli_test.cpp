// Runs the built `boreas` binary: exit codes of `cluster validate|show`, and the --json summary of
// every example checked against counts computed by hand.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_cli.h"

namespace {

using Outcome = boreas::testing::CliOutcome;

Outcome run_cli(const std::string& args) { return boreas::testing::run_boreas(args); }

std::string example(const std::string& name) {
  return std::string(BOREAS_SOURCE_DIR) + "/examples/clusters/" + name + ".yaml";
}

nlohmann::json show_json(const std::string& name) {
  const Outcome r = run_cli("cluster show --json " + example(name));
  EXPECT_EQ(r.rc, 0) << r.out;
  // hybrid's a100 racks are deliberately denser than their cooling: skip the warning (stderr) line.
  const size_t json = r.out.find('{');
  return nlohmann::json::parse(json == std::string::npos ? r.out : r.out.substr(json), nullptr, false);
}

// The warning hybrid.yaml's dense air racks (by design: they throttle when busy) print first.
std::string hybrid_warning() {
  return "boreas: warning: " + example("hybrid") +
         ":35:5: racks of group 'a100' draw up to 21.2 kW, above their cooling limit of 12.0 kW; lower "
         "nodes_per_rack or raise the limit\n";
}

TEST(ClusterCli, ValidateExitCodes) {
  const Outcome ok = run_cli("cluster validate " + example("hybrid"));
  EXPECT_EQ(ok.rc, 0);
  EXPECT_EQ(ok.out, hybrid_warning() + "ok: " + example("hybrid") + ": 384 nodes, 2304 GPUs\n");
  const Outcome missing = run_cli("cluster validate /nonexistent/boreas.yaml");
  EXPECT_EQ(missing.rc, 1);
  EXPECT_EQ(
      missing.out,
      "boreas: error: /nonexistent/boreas.yaml: cannot read: No such file or directory; check the path and "
      "permissions\n");
  const Outcome bad =
      run_cli("cluster validate " + std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/config/queues.yaml");
  EXPECT_EQ(bad.rc, 1);
  EXPECT_NE(bad.out.find("unknown key 'priority_classes' in cluster spec"), std::string::npos) << bad.out;
  EXPECT_EQ(run_cli("cluster frobnicate x").rc, 1);
  EXPECT_EQ(run_cli("cluster validate").rc, 1);
}

TEST(ClusterCli, ValidateWithQueues) {
  const Outcome r = run_cli("cluster validate " + example("hybrid") + " --queues " +
                           std::string(BOREAS_SOURCE_DIR) + "/examples/queues/hybrid.yaml");
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("ok: "), std::string::npos);
}

TEST(ClusterCli, ShowPrintsASummary) {
  const Outcome r = run_cli("cluster show " + example("hybrid"));
  EXPECT_EQ(r.rc, 0);
  EXPECT_EQ(r.out.rfind(hybrid_warning() + "cluster hybrid: 3 zones, 76 racks, 384 nodes (64 CPU-only), 2,304 GPUs", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find("IT power envelope"), std::string::npos);
}

TEST(ClusterCli, JsonOfEveryExampleMatchesHandCounts) {
  struct Expected {
    const char* name;
    int zones, racks, nodes, cpu_only, gpus;
  };
  // hybrid: 128x8 H100 (4/rack) + 128x8 A100 (4/rack) + 64x4 L4 (8/rack) + 64 CPU (16/rack).
  // openb: shared traces/alibaba-pai-gpu-2023/SOURCE.md (racks: 32 GPUs or 16 nodes each, see the script).
  const Expected cases[] = {{"hybrid", 3, 32 + 32 + 8 + 4, 384, 64, 2304},
                            {"philly", 1, 8, 64, 0, 512},
                            {"peer-64", 1, 1, 8, 0, 64},
                            {"peer-48", 1, 1, 6, 0, 48},
                            {"openb", 1, -1, 1523, 310, 6212}};
  for (const Expected& e : cases) {
    const nlohmann::json j = show_json(e.name);
    ASSERT_FALSE(j.is_discarded()) << e.name;
    EXPECT_EQ(j["name"], e.name);
    EXPECT_EQ(j["totals"]["zones"], e.zones) << e.name;
    if (e.racks >= 0) {
      EXPECT_EQ(j["totals"]["racks"], e.racks) << e.name;
    }
    EXPECT_EQ(j["totals"]["nodes"], e.nodes) << e.name;
    EXPECT_EQ(j["totals"]["cpu_only_nodes"], e.cpu_only) << e.name;
    EXPECT_EQ(j["totals"]["gpus"], e.gpus) << e.name;
    int by_type = 0;
    for (const auto& t : j["gpus_by_type"]) {
      by_type += t["gpus"].get<int>();
    }
    EXPECT_EQ(by_type, e.gpus) << e.name;
  }
}

TEST(ClusterCli, JsonSchemaKeys) {
  const nlohmann::json j = show_json("hybrid");
  for (const char* key : {"name", "totals", "zones", "gpus_by_type", "peak_pflops", "it_power_kw",
                          "facility_power_kw", "on_demand_usd_per_hour", "fabric"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["zones"][0]["name"], "liquid-a");
  EXPECT_EQ(j["zones"][0]["cooling"], "direct-liquid");
  EXPECT_EQ(j["fabric"][1]["tier"], "leaf");
  EXPECT_EQ(j["fabric"][1]["latency_us"], 1);
  EXPECT_EQ(j["gpus_by_type"][0]["type"], "H100-SXM");
  EXPECT_NEAR(j["peak_pflops"]["bf16"].get<double>(), (1024 * 989 + 1024 * 312 + 256 * 121) / 1000.0, 1e-9);
}

}  // namespace
