#include <gtest/gtest.h>

#include <algorithm>

#include "models/cost.h"
#include "models/spot.h"

namespace boreas::models {
namespace {

TEST(Spot, DefaultsAreValidAndNoticeIsNotNegative) {
  EXPECT_TRUE(validate(SpotParams{}).is_ok());
  SpotParams p;
  p.notice = Duration::seconds(-1);
  EXPECT_FALSE(validate(p).is_ok());
}

// 10 nodes, one reclaim per 24 node-hours each → a reclaim every 2.4 h on average.
TEST(Spot, ReclaimsArriveAtTheGroupRate) {
  const SpotParams p;
  Rng rng(11);
  double total_h = 0;
  uint32_t max_node = 0;
  for (int i = 0; i < 20000; ++i) {
    const SpotReclaim r = next_reclaim(p, 10, rng);
    total_h += duration_to_hours(r.notice_after);
    EXPECT_EQ(r.reclaim_after - r.notice_after, Duration::seconds(120));
    EXPECT_GE(r.returns_after, r.reclaim_after);
    max_node = std::max(max_node, r.node);
  }
  EXPECT_NEAR(total_h / 20000, 2.4, 0.06);
  EXPECT_EQ(max_node, 9u);
}

TEST(Spot, CheckpointWithinNoticeLosesNothing) {
  const Duration notice = Duration::seconds(120);
  EXPECT_EQ(work_lost_on_reclaim(Duration::minutes(40), Duration::seconds(60), notice), Duration::zero());
  EXPECT_EQ(work_lost_on_reclaim(Duration::minutes(40), Duration::seconds(300), notice),
            Duration::minutes(40));
}

GpuType priced(double on_demand, double spot, double reserved) {
  GpuType t;
  t.name = "G";
  t.price.on_demand_usd_per_hour = on_demand;
  t.price.spot_usd_per_hour = spot;
  t.price.reserved_usd_per_hour = reserved;
  return t;
}

// A type priced 2.95 on demand and 2.25 spot, no reserved → 2.95 × 0.55 = 1.6225.
TEST(Cost, TierPricesWithCatalogAndDiscountFallbacks) {
  const CostParams p;
  const GpuType h100 = priced(2.95, 2.25, 0);
  EXPECT_DOUBLE_EQ(gpu_hour_price(h100, PriceTier::kOnDemand, p), 2.95);
  EXPECT_DOUBLE_EQ(gpu_hour_price(h100, PriceTier::kSpot, p), 2.25);
  EXPECT_NEAR(gpu_hour_price(h100, PriceTier::kReserved, p), 1.6225, 1e-12);
  EXPECT_NEAR(gpu_hour_price(priced(1.0, 0, 0), PriceTier::kSpot, p), 0.4, 1e-12);
  EXPECT_DOUBLE_EQ(gpu_hour_price(priced(1.0, 0, 0.7), PriceTier::kReserved, p), 0.7);
}

// Queue 0: 8 GPUs × 2 h on demand = 16 × 2.95 = 47.2 $ + 10 kWh × 0.10 = 1 $.
// Queue 2: 4 GPU-hours spot = 9 $. Queue 1 never used.
TEST(Cost, ChargebackPerQueueByHand) {
  CostAccumulator acc{CostParams{}};
  const GpuType h100 = priced(2.95, 2.25, 0);
  acc.add_gpu_time(QueueId(0), h100, PriceTier::kOnDemand, Duration::hours(2) * 8);
  acc.add_energy(QueueId(0), 10);
  acc.add_gpu_time(QueueId(2), h100, PriceTier::kSpot, Duration::hours(4));
  EXPECT_NEAR(acc.queue(QueueId(0)).total_usd(), 48.2, 1e-9);
  EXPECT_NEAR(acc.queue(QueueId(0)).gpu_hours, 16, 1e-12);
  EXPECT_NEAR(acc.queue(QueueId(1)).total_usd(), 0, 1e-12);
  EXPECT_NEAR(acc.queue(QueueId(2)).total_usd(), 9, 1e-9);
  EXPECT_NEAR(acc.queue(QueueId(7)).total_usd(), 0, 1e-12);
  EXPECT_NEAR(acc.total().total_usd(), 57.2, 1e-9);
  EXPECT_NEAR(acc.total().facility_kwh, 10, 1e-12);
}

}  // namespace
}  // namespace boreas::models
