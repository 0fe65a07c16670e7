// Property: water_fill (sim/meter.h) with its loop split in two (output15: the claims met in full
// first, without waiting for each share's division) gives every claim the bits the single loop
// with std::min gave (written out below as it was). Random claims: integer demands as the meter
// has (GPUs), fractional ones, ties, equal shares that meet a demand exactly, weights of 0, 1 or
// random, capacities below, at and above the total demand; one scratch reused as the meter does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "sim/meter.h"

namespace boreas::sim {
namespace {

double plain_fill(std::vector<Claim>& claims, const std::vector<size_t>& order, double capacity, bool weighted) {
  std::vector<std::pair<double, size_t>> keys;
  double total_weight = 0;
  for (size_t i : order) {
    const double w = weighted ? claims[i].weight : 1.0;
    keys.emplace_back(claims[i].demand / w, i);
    total_weight += w;
  }
  std::sort(keys.begin(), keys.end());
  for (const auto& [key, i] : keys) {
    const double w = weighted ? claims[i].weight : 1.0;
    const double share = total_weight > 0 ? capacity * w / total_weight : 0;
    claims[i].entitled = std::min(claims[i].demand, share);
    capacity -= claims[i].entitled;
    total_weight -= w;
  }
  return std::max(0.0, capacity);
}

// water_fill before output15.
void plain_water_fill(std::vector<Claim>& claims, double capacity) {
  double demand = 0;
  for (Claim& c : claims) {
    c.entitled = c.demand;
    demand += c.demand;
  }
  if (demand <= capacity) {
    return;
  }
  std::vector<size_t> weighted, unweighted;
  for (size_t i = 0; i < claims.size(); ++i) {
    (claims[i].weight > 0 ? weighted : unweighted).push_back(i);
  }
  const double left = plain_fill(claims, weighted, capacity, true);
  plain_fill(claims, unweighted, left, false);
}

std::vector<Claim> random_claims(std::mt19937_64& rng) {
  std::vector<Claim> claims(1 + rng() % 16);
  const int weights = static_cast<int>(rng() % 3);  // all 1, 0 or 1, random
  const bool integer = rng() % 4 != 0;
  std::uniform_real_distribution<double> real(0, 64);
  for (Claim& c : claims) {
    c.demand = integer ? static_cast<double>(rng() % 40) : real(rng);
    c.weight = weights == 0 ? 1.0 : weights == 1 ? static_cast<double>(rng() % 2) : real(rng) * (rng() % 3);
    c.entitled = -1;
  }
  return claims;
}

TEST(WaterFillProperty, SplitLoopGivesTheBitsOfTheSingleMinLoop) {
  std::mt19937_64 rng(15);
  WaterFillScratch scratch;
  for (int trial = 0; trial < 200000; ++trial) {
    std::vector<Claim> claims = random_claims(rng);
    double total = 0;
    for (const Claim& c : claims) {
      total += c.demand;
    }
    // Below, at and above the demand; multiples of the claim count make equal shares whole.
    const double capacity = rng() % 3 == 0 ? static_cast<double>(claims.size() * (rng() % 20))
                                           : std::uniform_real_distribution<double>(0, total * 1.2)(rng);
    std::vector<Claim> expected = claims;
    plain_water_fill(expected, capacity);
    water_fill(claims, capacity, scratch);
    for (size_t i = 0; i < claims.size(); ++i) {
      ASSERT_EQ(std::memcmp(&claims[i].entitled, &expected[i].entitled, sizeof(double)), 0)
          << "trial " << trial << ", claim " << i << ": " << claims[i].entitled << " vs " << expected[i].entitled;
    }
  }
}

}  // namespace
}  // namespace boreas::sim
