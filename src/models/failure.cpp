#include "models/failure.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "models/param_check.h"

namespace boreas::models {
namespace {

constexpr double kLlamaGpusPerHost = 8;

}  // namespace

FailureParams llama3_failure_params(uint32_t gpus_per_node) {
  FailureParams p;
  p.gpu_mtbf_hours = param("failure.gpu_mtbf_hours");
  p.job_only_mtbf_hours = param("failure.job_only_mtbf_hours");
  // Keeps the per-GPU-hour total at the Llama figure whatever the host size: a host of g GPUs
  // carries g/8 of an 8-GPU host's host failures.
  p.node_mtbf_hours = param("failure.node_mtbf_hours") * kLlamaGpusPerHost / gpus_per_node;
  return p;
}

Status validate(const FailureParams& p) {
  return ParamCheck("failure")
      .positive("gpu_mtbf_hours", p.gpu_mtbf_hours)
      .positive("node_mtbf_hours", p.node_mtbf_hours)
      .positive("job_only_mtbf_hours", p.job_only_mtbf_hours)
      .positive("gpu_repair_hours", p.gpu_repair_hours)
      .positive("node_repair_hours", p.node_repair_hours)
      .status();
}

double job_mtbf_hours(const FailureParams& p, uint32_t gpus, uint32_t nodes) {
  const double rate = gpus / p.gpu_mtbf_hours + nodes / p.node_mtbf_hours + gpus / p.job_only_mtbf_hours;
  return rate > 0 ? 1.0 / rate : INFINITY;
}

uint32_t FailureProcess::add(double mtbf_hours) {
  assert(mtbf_hours > 0);
  const auto i = static_cast<uint32_t>(rate_.size() + 1);  // 1-based tree position
  rate_.push_back(1.0 / mtbf_hours);
  enabled_.push_back(true);
  // A new last node covers (i − lowbit(i), i]: its own rate plus the enabled rates before it.
  const uint32_t first = i - (i & (~i + 1));
  tree_.push_back(rate_.back() + prefix(i - 1) - prefix(first));
  return i - 1;
}

double FailureProcess::prefix(uint32_t count) const {
  double sum = 0;
  for (uint32_t i = count; i > 0; i -= i & (~i + 1)) {
    sum += tree_[i - 1];
  }
  return std::max(0.0, sum);
}

void FailureProcess::update(uint32_t component, double delta) {
  for (auto i = component + 1; i <= tree_.size(); i += i & (~i + 1)) {
    tree_[i - 1] += delta;
  }
}

void FailureProcess::set_enabled(uint32_t component, bool enabled) {
  if (enabled_[component] == enabled) {
    return;
  }
  enabled_[component] = enabled;
  update(component, enabled ? rate_[component] : -rate_[component]);
}

std::optional<FailureEvent> FailureProcess::next(Rng& rng) const {
  const double total = total_rate_per_hour();
  if (total <= 1e-300) {
    return std::nullopt;
  }
  const double hours = exponential(rng, total);
  return FailureEvent{hours_to_duration(hours), pick(uniform01(rng) * total)};
}

// The first component whose running sum of enabled rates exceeds u (Fenwick descent).
uint32_t FailureProcess::pick(double u) const {
  uint32_t pos = 0;
  uint32_t step = 1;
  while (step * 2 <= size()) {
    step *= 2;
  }
  for (; step > 0; step /= 2) {
    if (pos + step <= size() && tree_[pos + step - 1] <= u) {
      pos += step;
      u -= tree_[pos - 1];
    }
  }
  // Rounding can land past the last enabled component or on a disabled one: step back.
  pos = std::min(pos, size() - 1);
  while (pos > 0 && !enabled_[pos]) {
    --pos;
  }
  while (!enabled_[pos] && pos + 1 < size()) {
    ++pos;  // only when everything before u was disabled
  }
  return pos;
}

FailureProcess job_failure_process(const FailureParams& p, uint32_t gpus, uint32_t nodes) {
  FailureProcess process;
  for (uint32_t i = 0; i < gpus; ++i) {
    process.add(p.gpu_mtbf_hours);
  }
  for (uint32_t i = 0; i < nodes; ++i) {
    process.add(p.node_mtbf_hours);
  }
  for (uint32_t i = 0; i < gpus; ++i) {
    process.add(p.job_only_mtbf_hours);
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
