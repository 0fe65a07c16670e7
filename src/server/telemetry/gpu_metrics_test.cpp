#include "server/telemetry/gpu_metrics.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "server/testing/fake_gpu_probe.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

TEST(GpuTelemetry, ExportsEachGpuInPrometheusUnits) {
  FakeGpuProbe probe;
  MetricsRegistry metrics;
  GpuTelemetry telemetry(probe, metrics, "host1");
  telemetry.sample_once();
  const std::string text = "\n" + metrics.render();
  const std::string gpu0 = R"({gpu="0",node="host1",type="NVIDIA H100 80GB HBM3"})";
  const std::string gpu1 = R"({gpu="1",node="host1",type="NVIDIA H100 80GB HBM3"})";
  EXPECT_TRUE(has_line(text, "boreas_gpu_utilization_ratio" + gpu0 + " 0.42")) << text;
  EXPECT_TRUE(has_line(text, "boreas_gpu_utilization_ratio" + gpu1 + " 0")) << text;
  EXPECT_TRUE(has_line(text, "boreas_gpu_memory_used_bytes" + gpu0 + " 1073741824")) << text;
  EXPECT_TRUE(has_line(text, "boreas_gpu_temperature_celsius" + gpu0 + " 61")) << text;
  EXPECT_TRUE(has_line(text, "boreas_gpu_power_watts" + gpu0 + " 312.5")) << text;
  EXPECT_TRUE(has_line(text, "boreas_gpu_power_watts" + gpu1 + " 70")) << text;
  EXPECT_TRUE(has_line(text, "# TYPE boreas_gpu_power_watts gauge")) << text;
  if (const auto lint = promtool_check(metrics.render())) {
    EXPECT_EQ(lint->status, 0) << lint->output;
    EXPECT_EQ(lint->output, "");
  }
}

TEST(GpuTelemetry, SamplesInTheBackgroundUntilStopped) {
  FakeGpuProbe probe;
  MetricsRegistry metrics;
  GpuTelemetry telemetry(probe, metrics, "host1");
  telemetry.start(Duration::millis(1));
  EXPECT_GE(probe.samples.load(), 1);  // start() samples once before returning
  for (int i = 0; i < 2000 && probe.samples.load() < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  telemetry.stop();
  const int after_stop = probe.samples.load();
  EXPECT_GE(after_stop, 3);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(probe.samples.load(), after_stop);
}

}  // namespace
}  // namespace boreas::server
