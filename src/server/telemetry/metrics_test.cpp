#include "server/telemetry/metrics.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>

#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

MetricsRegistry sample_registry() {
  MetricsRegistry r;
  auto& jobs = r.add("boreas_jobs", "Jobs by state and queue.", MetricType::kGauge, {"state", "queue"});
  jobs.set({"running", "team-a"}, 3);
  jobs.set({"pending", "we\"ird\\q\nname"}, 1);
  auto& submits = r.add("boreas_submissions_total", "Accepted submissions.", MetricType::kCounter);
  submits.add({});
  submits.add({}, 2);
  auto& round = r.add("boreas_schedule_round_seconds", "Scheduling round latency.\nSecond line.",
                      MetricType::kHistogram, {}, {0.5, 0.25});
  round.observe({}, 0.125);
  round.observe({}, 0.25);  // upper bounds are inclusive
  round.observe({}, 2);
  return r;
}

TEST(Metrics, RendersTheTextExpositionFormat) {
  const std::string expected =
      "# HELP boreas_jobs Jobs by state and queue.\n"
      "# TYPE boreas_jobs gauge\n"
      "boreas_jobs{state=\"pending\",queue=\"we\\\"ird\\\\q\\nname\"} 1\n"
      "boreas_jobs{state=\"running\",queue=\"team-a\"} 3\n"
      "# HELP boreas_submissions_total Accepted submissions.\n"
      "# TYPE boreas_submissions_total counter\n"
      "boreas_submissions_total 3\n"
      "# HELP boreas_schedule_round_seconds Scheduling round latency.\\nSecond line.\n"
      "# TYPE boreas_schedule_round_seconds histogram\n"
      "boreas_schedule_round_seconds_bucket{le=\"0.25\"} 2\n"
      "boreas_schedule_round_seconds_bucket{le=\"0.5\"} 2\n"
      "boreas_schedule_round_seconds_bucket{le=\"+Inf\"} 3\n"
      "boreas_schedule_round_seconds_sum 2.375\n"
      "boreas_schedule_round_seconds_count 3\n";
  EXPECT_EQ(sample_registry().render(), expected);
}

TEST(Metrics, ClearDropsSeriesButKeepsTheFamily) {
  MetricsRegistry r;
  auto& g = r.add("boreas_gpus", "GPUs by state.", MetricType::kGauge, {"state"});
  g.set({"free"}, 8);
  g.clear();
  EXPECT_EQ(r.render(), "# HELP boreas_gpus GPUs by state.\n# TYPE boreas_gpus gauge\n");
}

TEST(Metrics, SampleValuesAndNames) {
  EXPECT_EQ(format_sample_value(2), "2");
  EXPECT_EQ(format_sample_value(0.25), "0.25");
  EXPECT_EQ(format_sample_value(0.00025), "0.00025");
  EXPECT_EQ(format_sample_value(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_sample_value(INFINITY), "+Inf");
  EXPECT_EQ(format_sample_value(-INFINITY), "-Inf");
  EXPECT_EQ(format_sample_value(NAN), "NaN");
  EXPECT_TRUE(valid_metric_name("boreas:jobs_total"));
  EXPECT_FALSE(valid_metric_name("9jobs"));
  EXPECT_FALSE(valid_metric_name("jobs-total"));
  EXPECT_TRUE(valid_label_name("queue"));
  EXPECT_FALSE(valid_label_name("__reserved"));
  EXPECT_FALSE(valid_label_name("a:b"));
}

TEST(Metrics, PassesPromtoolCheckMetrics) {
  const auto r = promtool_check(sample_registry().render());
  if (!r) {
    GTEST_SKIP() << "promtool is absent: install the Debian package `prometheus` "
                    "(scripts/install-deps.sh) to run this check";
  }
  EXPECT_EQ(r->status, 0) << r->output;
  EXPECT_EQ(r->output, "");
}

// The value of the first sample line that starts with `prefix`, or NaN.
double sample(const std::string& text, const std::string& prefix) {
  const size_t at = text.find("\n" + prefix);
  return at == std::string::npos ? std::nan("") : std::strtod(text.c_str() + text.find(' ', at + 1) + 1, nullptr);
}

TEST(Metrics, BuildInfoAndProcessMetricsComeFromProcSelf) {
  MetricsRegistry r;
  add_process_metrics(r, "0.1.0", "abc123");
  const std::string text = r.render();
  EXPECT_NE(text.find("\nboreas_build_info{version=\"0.1.0\",git=\"abc123\"} 1\n"), std::string::npos) << text;
  EXPECT_GT(sample(text, "process_resident_memory_bytes "), 1e6);  // a test binary holds more than 1 MB
  EXPECT_GE(sample(text, "process_open_fds "), 3);                  // stdin, stdout, stderr at least
  EXPECT_GE(sample(text, "process_cpu_seconds_total "), 0);
  const double start = sample(text, "process_start_time_seconds ");
  const double now = static_cast<double>(std::time(nullptr));
  EXPECT_LE(start, now + 1);
  EXPECT_GT(start, now - 3600);  // this test process started within the hour
  // Opening files shows on the next scrape.
  std::ifstream a("/proc/self/stat"), b("/proc/self/statm");
  EXPECT_GE(sample(r.render(), "process_open_fds "), sample(text, "process_open_fds ") + 2);
  const auto check = promtool_check(text);
  if (check) {
    EXPECT_EQ(check->status, 0) << check->output;
  }
}

}  // namespace
}  // namespace boreas::server
