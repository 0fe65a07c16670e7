#include "models/power.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/param_check.h"

namespace boreas::models {

Status validate(const PowerParams& p) {
  return ParamCheck("power")
      .positive("clock_power_exponent", p.clock_power_exponent)
      .positive("min_clock", p.min_clock)
      .in("min_clock", p.min_clock, 0, 1)
      .in("default_activity", p.default_activity, 0, 1)
      .at_least("nvlink_node_host_w", p.nvlink_node_host_w, 0)
      .at_least("nvlink_node_per_gpu_w", p.nvlink_node_per_gpu_w, 0)
      .at_least("pcie_node_host_w", p.pcie_node_host_w, 0)
      .at_least("pcie_node_per_gpu_w", p.pcie_node_per_gpu_w, 0)
      .status();
}

Status validate_for_power(const GpuType& type) {
  return ParamCheck("power (GPU type '" + type.name + "')")
      .positive("tdp_w", type.tdp_w)
      .in("idle_w", type.idle_w, 0, type.tdp_w)
      .status();
}

double idle_w(const GpuType& type) {
  return type.idle_w > 0 ? type.idle_w : 0.1 * type.tdp_w;
}

double gpu_power_w(const GpuType& type, double activity, double clock, const PowerParams& p) {
  const double idle = idle_w(type);
  return idle + (type.tdp_w - idle) * activity * std::pow(clock, p.clock_power_exponent);
}

namespace {

// The clock at which fixed + dynamic_full · clock^γ meets the cap.
CappedClock solve_clock(double fixed_w, double dynamic_full_w, double cap_w, const PowerParams& p) {
  if (fixed_w + dynamic_full_w <= cap_w) {
    return {1.0, true};
  }
  const double headroom = std::max(0.0, cap_w - fixed_w);
  const double clock = std::pow(headroom / dynamic_full_w, 1.0 / p.clock_power_exponent);
  if (clock < p.min_clock) {
    return {p.min_clock, false};
  }
  return {clock, true};
}

}  // namespace

CappedClock clock_for_cap(const GpuType& type, double activity, double cap_w, const PowerParams& p) {
  const double idle = idle_w(type);
  return solve_clock(idle, (type.tdp_w - idle) * activity, cap_w, p);
}

CappedClock group_clock_for_cap(std::span<const GpuLoad> gpus, double static_w, double cap_w,
                                const PowerParams& p) {
  double fixed = static_w;
  double dynamic_full = 0;
  for (const GpuLoad& g : gpus) {
    const double idle = idle_w(*g.type);
    fixed += idle;
    dynamic_full += (g.type->tdp_w - idle) * g.activity;
  }
  return solve_clock(fixed, dynamic_full, cap_w, p);
}

double gang_clock(std::span<const double> clocks) {
  return clocks.empty() ? 1.0 : *std::min_element(clocks.begin(), clocks.end());
}

double sum_w(std::span<const double> w) {
  return std::accumulate(w.begin(), w.end(), 0.0);
}

double node_static_w(uint32_t gpus, bool nvlink, const PowerParams& p) {
  if (nvlink) {
    return p.nvlink_node_host_w + p.nvlink_node_per_gpu_w * gpus;
  }
  return p.pcie_node_host_w + p.pcie_node_per_gpu_w * gpus;
}

double node_static_w(const Node& node, const PowerParams& p) {
  return node_static_w(node.gpu_count, node.nvlink, p);
}

double node_power_w(std::span<const double> gpu_w, bool nvlink, const PowerParams& p) {
  return sum_w(gpu_w) + node_static_w(static_cast<uint32_t>(gpu_w.size()), nvlink, p);
}

double energy_kwh(double power_w, Duration interval) {
  return power_w * interval.to_seconds() / 3.6e6;
}

}  // namespace boreas::models
