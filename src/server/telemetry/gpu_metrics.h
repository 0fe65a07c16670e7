#pragma once
// Per-GPU telemetry for /metrics: a background thread samples the probe (NVML on a real machine)
// every interval and sets gauges, so a scrape never waits on the driver.

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/time.h"
#include "server/telemetry/gpu_probe.h"
#include "server/telemetry/metrics.h"

namespace boreas::server {

class GpuTelemetry {
 public:
  // Registers the per-GPU families in `metrics`; `node` labels every series (this machine).
  GpuTelemetry(GpuProbe& probe, MetricsRegistry& metrics, std::string node);
  ~GpuTelemetry();
  GpuTelemetry(const GpuTelemetry&) = delete;
  GpuTelemetry& operator=(const GpuTelemetry&) = delete;

  void sample_once();  // one sample into the gauges (the thread calls this; so do tests)
  std::vector<GpuSample> latest() const;  // the last sample, by NVML index (empty before the first)
  void start(Duration interval);
  void stop();

 private:
  GpuProbe& probe_;
  std::string node_;
  std::vector<std::string> types_;  // device name by NVML index
  MetricFamily* utilization_;
  MetricFamily* memory_used_;
  MetricFamily* temperature_;
  MetricFamily* power_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<GpuSample> latest_;  // guarded by mu_
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace boreas::server
