#include "models/param_check.h"

#include <gtest/gtest.h>

#include <cmath>

#include "models/checkpoint.h"
#include "models/comm.h"
#include "models/cost.h"
#include "models/power.h"
#include "models/spot.h"
#include "models/thermal.h"

namespace boreas::models {
namespace {

TEST(ParamCheck, KeepsTheFirstFailureWithFieldRangeAndValue) {
  const Status s = ParamCheck("demo").positive("a", 1).in("b", 2, 0, 1).positive("c", -1).status();
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.message().find("demo model: b must be in [0.000000, 1.000000], got 2.000000"), 0u)
      << s.message();
  EXPECT_TRUE(ParamCheck("demo").positive("a", 1).at_least("b", 0, 0).status().is_ok());
  EXPECT_FALSE(ParamCheck("demo").positive("nan", std::nan("")).status().is_ok());
}

TEST(ParamCheck, EveryDefaultIsValid) {
  EXPECT_TRUE(validate(CommParams{}).is_ok());
  EXPECT_TRUE(validate(PowerParams{}).is_ok());
  EXPECT_TRUE(validate(ThermalParams{}).is_ok());
  EXPECT_TRUE(validate(CheckpointParams{}).is_ok());
  EXPECT_TRUE(validate(CostParams{}).is_ok());
  EXPECT_TRUE(validate(SpotParams{}).is_ok());
}

TEST(ParamCheck, ModelsRejectBadFields) {
  CommParams comm;
  comm.hierarchical_overlap = 2;
  EXPECT_NE(validate(comm).message().find("hierarchical_overlap"), std::string::npos);
  ThermalParams thermal;
  thermal.hw_slowdown_c = 80;  // below max_operating 85
  EXPECT_NE(validate(thermal).message().find("hw_slowdown_c"), std::string::npos);
  thermal = ThermalParams{};
  thermal.by_type.push_back({"X", 90, 88});
  EXPECT_NE(validate(thermal).message().find("by_type[X].hw_slowdown_c"), std::string::npos);
  CostParams cost;
  cost.spot_discount = 1.5;
  EXPECT_NE(validate(cost).message().find("spot_discount"), std::string::npos);
  GpuType cpu_only;
  cpu_only.name = "X";
  EXPECT_NE(validate_for_power(cpu_only).message().find("tdp_w"), std::string::npos);
}

}  // namespace
}  // namespace boreas::models
