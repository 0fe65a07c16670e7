// Properties of summarize's shortcuts (sim/metrics.h, sim/named_groups.h; output15):
// select_percentiles equals percentile() of the sorted values, bit for bit, on random values (with
// many ties or none, negative, up to 300 of them) and random lists of percentiles (ascending as the
// summary asks them, or not); NamedGroups hands each symbol the entry a lookup by its name would,
// so every entry sees its items in the same order (the empty symbol and a queue named "default"
// share one).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "sim/metrics.h"
#include "sim/named_groups.h"

namespace boreas::sim {
namespace {

std::vector<double> random_values(std::mt19937_64& rng) {
  std::vector<double> v(rng() % 301);
  const bool ties = rng() % 2 == 0;
  std::uniform_real_distribution<double> real(-1e6, 1e6);
  for (double& x : v) {
    x = ties ? static_cast<double>(rng() % 7) * 0.5 : real(rng);
  }
  return v;
}

std::vector<double> random_ps(std::mt19937_64& rng) {
  std::vector<double> ps = {50, 95, 99};
  if (rng() % 2 == 0) {
    ps.clear();
    std::uniform_real_distribution<double> p(0, 100);
    for (size_t n = 1 + rng() % 6; n > 0; --n) {
      ps.push_back(rng() % 4 == 0 ? static_cast<double>(rng() % 2) * 100 : p(rng));
    }
    if (rng() % 2 == 0) {
      std::sort(ps.begin(), ps.end());
    }
  }
  return ps;
}

TEST(SelectPercentilesProperty, EqualsPercentileOfTheSortedValues) {
  std::mt19937_64 rng(15);
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<double> values = random_values(rng);
    const std::vector<double> ps = random_ps(rng);
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> got(ps.size());
    select_percentiles(values, ps, got);
    for (size_t i = 0; i < ps.size(); ++i) {
      ASSERT_EQ(got[i], percentile(sorted, ps[i])) << "trial " << trial << ", p " << ps[i];
    }
    std::sort(values.begin(), values.end());
    ASSERT_EQ(values, sorted);  // reordered, nothing lost
  }
}

TEST(NamedGroupsProperty, EachSymbolGetsTheEntryOfItsName) {
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 500; ++trial) {
    SymbolTable symbols;
    std::vector<Symbol> pool = {Symbol(), symbols.intern("default")};
    for (size_t n = rng() % 20; n > 0; --n) {
      pool.push_back(symbols.intern("q" + std::to_string(rng() % 12)));
    }
    const auto name_of = [&](Symbol s) { return s.empty() ? std::string("default") : std::string(symbols.view(s)); };
    std::map<std::string, std::vector<int>> by_name, by_lookup;
    NamedGroups<std::vector<int>> groups;
    for (int item = 0; item < 200; ++item) {
      const Symbol s = pool[rng() % pool.size()];
      groups.of(s, by_name, name_of).push_back(item);
      by_lookup[name_of(s)].push_back(item);
    }
    ASSERT_EQ(by_name, by_lookup) << "trial " << trial;
  }
}

}  // namespace
}  // namespace boreas::sim
