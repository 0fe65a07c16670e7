#include "server/telemetry/gpu_metrics.h"

#include <chrono>

namespace boreas::server {

GpuTelemetry::GpuTelemetry(GpuProbe& probe, MetricsRegistry& metrics, std::string node)
    : probe_(probe), node_(std::move(node)) {
  for (const GpuDevice& d : probe_.devices()) {
    if (types_.size() <= d.index) {
      types_.resize(d.index + 1);
    }
    types_[d.index] = d.name;
  }
  const std::vector<std::string> labels = {"gpu", "node", "type"};
  utilization_ = &metrics.add("boreas_gpu_utilization_ratio",
                              "Fraction of the last sample period a kernel ran on the GPU (NVML).",
                              MetricType::kGauge, labels);
  memory_used_ = &metrics.add("boreas_gpu_memory_used_bytes", "GPU memory in use (NVML).",
                              MetricType::kGauge, labels);
  temperature_ = &metrics.add("boreas_gpu_temperature_celsius", "GPU core temperature (NVML).",
                              MetricType::kGauge, labels);
  power_ = &metrics.add("boreas_gpu_power_watts", "GPU board power draw (NVML).", MetricType::kGauge,
                        labels);
}

GpuTelemetry::~GpuTelemetry() { stop(); }

void GpuTelemetry::sample_once() {
  std::vector<GpuSample> samples = probe_.sample();
  for (const GpuSample& s : samples) {
    const std::string type = s.index < types_.size() ? types_[s.index] : std::string();
    const LabelValues labels = {std::to_string(s.index), node_, type};
    utilization_->set(labels, s.utilization_pct / 100.0);
    memory_used_->set(labels, static_cast<double>(s.memory_used_bytes));
    temperature_->set(labels, s.temperature_c);
    power_->set(labels, s.power_mw / 1000.0);
  }
  std::lock_guard lock(mu_);
  latest_ = std::move(samples);
}

std::vector<GpuSample> GpuTelemetry::latest() const {
  std::lock_guard lock(mu_);
  return latest_;
}

void GpuTelemetry::start(Duration interval) {
  sample_once();  // the first scrape already has values
  thread_ = std::thread([this, interval] {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::microseconds(interval.us()), [this] { return stopping_; })) {
      lock.unlock();
      sample_once();
      lock.lock();
    }
  });
}

void GpuTelemetry::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

}  // namespace boreas::server
