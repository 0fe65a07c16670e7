#include "models/params.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace boreas::models {
namespace {

// Every row says where its value comes from, or says it is an assumption and why.
TEST(Params, EveryParameterHasASourceOrIsAnAssumption) {
  ASSERT_FALSE(param_table().empty());
  for (const ParamSpec& p : param_table()) {
    EXPECT_FALSE(p.source.empty()) << p.name << ": no source and no reasoning";
    EXPECT_FALSE(p.moves.empty()) << p.name << ": say what it moves";
    if (!p.assumption) {
      // A sourced row names a FACTS section or a named public source.
      EXPECT_TRUE(p.source.find("FACTS") != std::string_view::npos ||
                  p.source.find("documentation") != std::string_view::npos)
          << p.name << ": '" << p.source << "' names no FACTS row or public source";
    }
  }
}

TEST(Params, NamesAreUnique) {
  std::set<std::string_view> seen;
  for (const ParamSpec& p : param_table()) {
    EXPECT_TRUE(seen.insert(p.name).second) << p.name;
  }
}

// The structs take their defaults from the table, and every row reaches a field.
TEST(Params, EveryRowReachesItsFieldWithTheTableDefault) {
  const ModelParams defaults;
  for (const ParamSpec& p : param_table()) {
    const std::optional<double> v = get_param(defaults, p.name);
    ASSERT_TRUE(v.has_value()) << p.name << " has no field";
    EXPECT_NEAR(*v, p.value, 1e-9 * std::max(1.0, p.value)) << p.name;
  }
  EXPECT_TRUE(validate(defaults).is_ok()) << validate(defaults).message();
}

TEST(Params, SetWritesTheField) {
  ModelParams p;
  ASSERT_TRUE(set_param(p, "thermal.inlet_rise_c_per_kw", 2.5).is_ok());
  EXPECT_EQ(p.thermal.inlet_rise_c_per_kw, 2.5);
  ASSERT_TRUE(set_param(p, "thermal.H100-SXM.max_operating_c", 83).is_ok());
  GpuType h100;
  h100.name = "H100-SXM";
  EXPECT_EQ(thresholds_for(h100, p.thermal).max_operating_c, 83);
  ASSERT_TRUE(set_param(p, "spot.notice_s", 30).is_ok());
  EXPECT_EQ(p.spot.notice, Duration::seconds(30));
}

TEST(Params, UnknownNameIsNotFound) {
  ModelParams p;
  const Status s = set_param(p, "thermal.inlet_rise", 2);
  EXPECT_EQ(s.code(), ErrorCode::kNotFound);
  EXPECT_NE(s.message().find("thermal.inlet_rise"), std::string::npos);
}

TEST(Params, ParsesAListAndRefusesBadSyntax) {
  auto ok = parse_param_overrides("cost.energy_usd_per_kwh=0.2,failure.gpu_repair_hours=48");
  ASSERT_TRUE(ok.is_ok());
  ASSERT_EQ(ok->size(), 2u);
  EXPECT_EQ((*ok)[1].name, "failure.gpu_repair_hours");
  EXPECT_EQ((*ok)[1].value, 48);
  const auto no_eq = parse_param_overrides("cost.energy_usd_per_kwh");
  ASSERT_FALSE(no_eq.is_ok());
  EXPECT_NE(no_eq.status().message().find("NAME=VALUE"), std::string::npos);
  const auto not_number = parse_param_overrides("cost.energy_usd_per_kwh=cheap");
  ASSERT_FALSE(not_number.is_ok());
  EXPECT_NE(not_number.status().message().find("'cheap' is not a number"), std::string::npos);
}

TEST(Params, OverridesAreValidated) {
  ModelParams p;
  const ParamOverride bad[] = {{"power.min_clock", 1.5}};
  const Status s = apply_overrides(p, bad);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("min_clock must be in [0"), std::string::npos) << s.message();
}

// Restore = restart overhead 60 s (FACTS §6.3 I4) + the 60 s default checkpoint read back at the
// write bandwidth = 120 s; at half the read bandwidth the read takes twice as long.
TEST(Params, DefaultRestoreIsRestartPlusReadBack) {
  ModelParams p;
  EXPECT_DOUBLE_EQ(default_restore_s(p), 120);
  p.checkpoint.read_gbps = p.checkpoint.write_gbps / 2;
  EXPECT_DOUBLE_EQ(default_restore_s(p), 180);
}

// The Llama 3 split (FACTS §4.1): 262 GPU-hardware, 53 host-hardware and 104 job-only
// interruptions, 419 in all, so a 16,384-GPU job on 2,048 hosts still sees one per 1,296/419 h.
TEST(Params, FailureSplitKeepsTheLlamaTotal) {
  const FailureParams f = ModelParams{}.failure;
  EXPECT_NEAR(f.gpu_mtbf_hours, 16384.0 * 1296 / 262, 1e-6);
  EXPECT_NEAR(f.node_mtbf_hours, 2048.0 * 1296 / 53, 1e-6);
  EXPECT_NEAR(f.job_only_mtbf_hours, 16384.0 * 1296 / 104, 1e-6);
  EXPECT_NEAR(job_mtbf_hours(f, 16384, 2048), 1296.0 / 419, 1e-9);
}

}  // namespace
}  // namespace boreas::models
