// Statistics of experiment results, checked against values computed by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "report/experiment_results.h"

namespace boreas::report {
namespace {

TEST(ExperimentStats, StudentTCriticalValues) {
  EXPECT_DOUBLE_EQ(t_critical_95(1), 12.706);
  EXPECT_DOUBLE_EQ(t_critical_95(9), 2.262);
  EXPECT_DOUBLE_EQ(t_critical_95(30), 2.042);
  EXPECT_NEAR(t_critical_95(60), 2.000, 0.002);   // table value 2.000
  EXPECT_NEAR(t_critical_95(120), 1.980, 0.002);  // table value 1.980
}

TEST(ExperimentStats, MeanAndIntervalByHand) {
  // 2, 4, 6: mean 4, sample sd 2, half-width 4.303 × 2 / √3.
  const Interval ci = mean_ci95({2, 4, 6});
  EXPECT_DOUBLE_EQ(ci.mean, 4);
  EXPECT_NEAR(ci.ci95, 4.303 * 2 / std::sqrt(3.0), 1e-12);
  EXPECT_EQ(mean_ci95({5}).ci95, 0);  // one value: no interval
  EXPECT_EQ(mean_ci95({}).mean, 0);
}

ArmRuns arm(std::string name, std::vector<double> jct) {
  ArmRuns a{std::move(name), 0.7, {}, {}};
  for (size_t i = 0; i < jct.size(); ++i) {
    a.seeds.push_back(i + 1);
    a.runs.push_back({{"avg_jct_s", jct[i]}});
  }
  return a;
}

TEST(ExperimentStats, PairedDifferenceCancelsTheSeedsWorkload) {
  // The seeds' workloads differ a lot (100, 200, 300) but the arm is always 10 lower: the paired
  // difference is exactly -10 with no spread, hence significant; unpaired intervals would overlap.
  ExperimentInfo info;
  info.name = "t";
  const auto j = experiment_results(info, {arm("baseline", {100, 200, 300}), arm("fast", {90, 190, 290})});
  const auto& fast = j["arms"][1];
  EXPECT_EQ(fast["name"], "fast");
  EXPECT_DOUBLE_EQ(fast["metrics"]["avg_jct_s"]["mean"].get<double>(), 190);
  const auto& d = fast["vs_baseline"]["avg_jct_s"];
  EXPECT_DOUBLE_EQ(d["diff_mean"].get<double>(), -10);
  EXPECT_DOUBLE_EQ(d["diff_ci95"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(d["change"].get<double>(), -10.0 / 200);
  EXPECT_TRUE(d["significant"].get<bool>());
  EXPECT_FALSE(j["arms"][0].contains("vs_baseline"));
}

TEST(ExperimentStats, AZeroBaselineGivesNoPercentage) {
  ExperimentInfo info;
  info.metrics = {"avg_jct_s"};
  const auto j = experiment_results(info, {arm("baseline", {0, 0}), arm("b", {3, 5})});
  const auto& d = j["arms"][1]["vs_baseline"]["avg_jct_s"];
  EXPECT_TRUE(d["change"].is_null());
  EXPECT_DOUBLE_EQ(d["diff_mean"].get<double>(), 4);
  EXPECT_NE(experiment_markdown(j).find("| b | 4±12.7 +4 |"), std::string::npos) << experiment_markdown(j);
}

TEST(ExperimentStats, NoisyDifferenceIsNotSignificant) {
  ExperimentInfo info;
  const auto j = experiment_results(info, {arm("baseline", {100, 100, 100}), arm("b", {90, 120, 95})});
  EXPECT_FALSE(j["arms"][1]["vs_baseline"]["avg_jct_s"]["significant"].get<bool>());
}

TEST(ExperimentPage, ShowsEveryArmAndTheChange) {
  ExperimentInfo info;
  info.name = "demo <x>";
  info.metrics = {"avg_jct_s"};
  const auto html = experiment_html(experiment_results(info, {arm("baseline", {100, 200}), arm("fast", {90, 190})}));
  EXPECT_NE(html.find("demo &lt;x&gt;"), std::string::npos);  // escaped
  EXPECT_NE(html.find("<th>fast</th>"), std::string::npos);
  EXPECT_NE(html.find("class=\"better\">-6.7%"), std::string::npos);  // -10 / 150
}

TEST(ExperimentPage, MarkdownRowsCarryTheIntervalAndThePairedChange) {
  ExperimentInfo info;
  info.metrics = {"avg_jct_s"};
  const auto md = experiment_markdown(experiment_results(info, {arm("baseline", {100, 200}), arm("fast", {90, 190})}));
  // fast: mean 140, sd 70.7, half-width 12.706 × 70.7 / √2 = 635; paired change -10 / 150 = -7%.
  EXPECT_NE(md.find("| load 0.7 | `avg_jct_s` |"), std::string::npos) << md;
  EXPECT_NE(md.find("| fast | 140±635 -7%* |"), std::string::npos) << md;
}

}  // namespace
}  // namespace boreas::report
