#pragma once
// GPU power from activity and clock (FACTS §3.1 suggested model), node and rack totals, and the
// clock that meets a power cap.

#include <cstdint>
#include <span>

#include "core/gpu.h"
#include "core/topology.h"
#include "core/status.h"
#include "core/time.h"
#include "models/param_table.h"

namespace boreas::models {

struct PowerParams {
  // Dynamic power ∝ clock^γ: P_dyn ∝ f·V² with voltage tracking frequency in the DVFS range.
  // docs/models.md checks γ = 3 against the LLaMA power-capping result (FACTS §3.1, T8).
  double clock_power_exponent = param("power.clock_power_exponent");
  // Lowest clock the driver's power/thermal controller goes to before hardware slowdown.
  double min_clock = param("power.min_clock");
  // Activity of a busy GPU when the job class gives none: H100 inference at batch 128 draws 86%
  // of TDP (T6), a training node at most 76% of its rating (T7) → 0.8.
  double default_activity = param("power.default_activity");
  // Non-GPU draw per node (CPUs, memory, fans, NICs, NVSwitch) by node class. NVLink baseboard
  // nodes (HGX/DGX): 500 W + 200 W per GPU, so an 8× H100 node at TDP draws 5.6 + 2.1 = 7.7 kW,
  // the ≈ 76% of its 10.2 kW rating FACTS §3.1 (T7) reports for training. PCIe servers (cards
  // in a general-purpose host): 300 W + 30 W per card, an assumption (models/param_table.h).
  double nvlink_node_host_w = param("power.nvlink_node_host_w");
  double nvlink_node_per_gpu_w = param("power.nvlink_node_per_gpu_w");
  double pcie_node_host_w = param("power.pcie_node_host_w");
  double pcie_node_per_gpu_w = param("power.pcie_node_per_gpu_w");
};

Status validate(const PowerParams& p);
// A type the power and thermal models can use: TDP > 0 and idle below TDP.
Status validate_for_power(const GpuType& type);

// The idle draw: the catalog's idle_w, else 0.1 × TDP ("truly idle", FACTS §3.1).
double idle_w(const GpuType& type);
// P = idle + (TDP − idle) × activity × clock^γ; activity and clock in [0, 1].
double gpu_power_w(const GpuType& type, double activity, double clock, const PowerParams& p);

struct CappedClock {
  double clock = 1;       // in [min_clock, 1]
  bool meets_cap = true;  // false when even min_clock draws more than the cap
};
// The highest clock whose draw at `activity` stays within cap_w.
CappedClock clock_for_cap(const GpuType& type, double activity, double cap_w, const PowerParams& p);

// One GPU of a rack or zone under a shared power cap.
struct GpuLoad {
  const GpuType* type = nullptr;
  double activity = 0;
};
// The one clock, applied to every GPU of the group, that keeps Σ GPU draws + static_w within
// cap_w: c = ((cap − static − Σ idle) / Σ dynamic)^(1/γ), clamped like clock_for_cap. This is how
// the engine enforces zone and rack caps (issue 5: caps lower clocks).
CappedClock group_clock_for_cap(std::span<const GpuLoad> gpus, double static_w, double cap_w,
                                const PowerParams& p);

// A synchronous gang runs at the pace of its slowest GPU (FACTS §1.2): the lowest clock factor.
double gang_clock(std::span<const double> clocks);

// A node's non-GPU draw by class: host + per-GPU × GPUs, NVLink (baseboard) or PCIe figures.
double node_static_w(uint32_t gpus, bool nvlink, const PowerParams& p);
double node_static_w(const Node& node, const PowerParams& p);
// Sum of a node's GPU draws (one entry per GPU) plus its static draw.
double node_power_w(std::span<const double> gpu_w, bool nvlink, const PowerParams& p);
double sum_w(std::span<const double> w);

// Energy of a constant draw over an interval.
double energy_kwh(double power_w, Duration interval);

}  // namespace boreas::models
