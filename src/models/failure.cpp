#include "models/failure.h"

#include <cassert>
#include <cmath>
#include <string>

namespace boreas::models {
namespace {

// Llama 3 405B, 54-day snapshot (FACTS §4.1, R1/R2).
constexpr double kLlamaGpus = 16384;
constexpr double kLlamaHours = 54 * 24;
constexpr double kLlamaUnexpected = 419;
constexpr double kGpuShareOfCauses = 0.587;  // "GPU issues were 58.7%" (paper, FACTS §4.1)

Status require_positive(double v, const char* field) {
  if (v > 0 && std::isfinite(v)) {
    return Status::ok();
  }
  return invalid_argument(std::string("failure model: ") + field +
                          " must be a positive number of hours, got " + std::to_string(v));
}

}  // namespace

FailureParams llama3_failure_params(uint32_t gpus_per_node) {
  const double gpu_hours_per_interruption = kLlamaGpus * kLlamaHours / kLlamaUnexpected;  // ≈ 50.7k
  const double nodes = kLlamaGpus / 8.0;  // Llama 3 ran 8-GPU hosts
  const double node_hours_per_interruption = nodes * kLlamaHours / kLlamaUnexpected;
  FailureParams p;
  p.gpu_mtbf_hours = gpu_hours_per_interruption / kGpuShareOfCauses;
  // Keeps the per-GPU-hour total at the Llama figure whatever the host size: a host of g GPUs
  // carries g/8 of an 8-GPU host's non-GPU failures.
  p.node_mtbf_hours = node_hours_per_interruption / (1.0 - kGpuShareOfCauses) * 8.0 / gpus_per_node;
  return p;
}

Status validate(const FailureParams& p) {
  BOREAS_RETURN_IF_ERROR(require_positive(p.gpu_mtbf_hours, "gpu_mtbf_hours"));
  BOREAS_RETURN_IF_ERROR(require_positive(p.node_mtbf_hours, "node_mtbf_hours"));
  BOREAS_RETURN_IF_ERROR(require_positive(p.gpu_repair_hours, "gpu_repair_hours"));
  return require_positive(p.node_repair_hours, "node_repair_hours");
}

double job_mtbf_hours(const FailureParams& p, uint32_t gpus, uint32_t nodes) {
  const double rate = gpus / p.gpu_mtbf_hours + nodes / p.node_mtbf_hours;
  return rate > 0 ? 1.0 / rate : INFINITY;
}

uint32_t FailureProcess::add(double mtbf_hours) {
  assert(mtbf_hours > 0);
  rate_.push_back(1.0 / mtbf_hours);
  enabled_.push_back(true);
  total_rate_ += rate_.back();
  return static_cast<uint32_t>(rate_.size() - 1);
}

void FailureProcess::set_enabled(uint32_t component, bool enabled) {
  if (enabled_[component] == enabled) {
    return;
  }
  enabled_[component] = enabled;
  total_rate_ += enabled ? rate_[component] : -rate_[component];
}

std::optional<FailureEvent> FailureProcess::next(Rng& rng) const {
  if (total_rate_ <= 1e-300) {
    return std::nullopt;
  }
  const double hours = exponential(rng, total_rate_);
  return FailureEvent{hours_to_duration(hours), pick(uniform01(rng) * total_rate_)};
}

// Linear scan: failures are rare events, so O(components) per failure is cheap.
uint32_t FailureProcess::pick(double u) const {
  uint32_t last_enabled = 0;
  for (uint32_t i = 0; i < rate_.size(); ++i) {
    if (!enabled_[i]) {
      continue;
    }
    last_enabled = i;
    if (u < rate_[i]) {
      return i;
    }
    u -= rate_[i];
  }
  return last_enabled;  // rounding left u just above the last rate
}

FailureProcess job_failure_process(const FailureParams& p, uint32_t gpus, uint32_t nodes) {
  FailureProcess process;
  for (uint32_t i = 0; i < gpus; ++i) {
    process.add(p.gpu_mtbf_hours);
  }
  for (uint32_t i = 0; i < nodes; ++i) {
    process.add(p.node_mtbf_hours);
  }
  return process;
}

double simulated_failure_interval_hours(const FailureProcess& process, uint32_t events, Rng& rng) {
  Duration horizon;
  for (uint32_t i = 0; i < events; ++i) {
    const std::optional<FailureEvent> e = process.next(rng);
    if (!e) {
      return INFINITY;
    }
    horizon += e->after;
  }
  return events > 0 ? duration_to_hours(horizon) / events : INFINITY;
}

Duration draw_repair(const FailureParams& p, ComponentKind kind, Rng& rng) {
  const double mean = kind == ComponentKind::kGpu ? p.gpu_repair_hours : p.node_repair_hours;
  return hours_to_duration(exponential(rng, 1.0 / mean));
}

}  // namespace boreas::models
