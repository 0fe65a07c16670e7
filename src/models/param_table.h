#pragma once
// The declared table of model parameters: every default of src/models/ and of the engine's
// physics comes from here (name, value, unit, source or "assumption", what it moves). The model
// structs initialise their fields with param("name"), checked at compile time, so a value lives in
// one place; `boreas models check` prints the table and `boreas sim --param NAME=VALUE` overrides
// an entry for one run (models/params.h). Sources are keys of the shared parameter sheet
// (FACTS.md, section and reference key) or a named public source; docs/models.md shows the
// arithmetic of the derived (D) ones.

#include <array>
#include <string_view>

namespace boreas::models {

struct ParamSpec {
  std::string_view name;
  double value = 0;
  std::string_view unit;
  bool assumption = false;  // true: no source, a choice to set per site (docs/models.md, Sensitivity)
  std::string_view source;  // FACTS key or named public source; for an assumption, the reasoning
  std::string_view moves;   // the results it changes
};

namespace table {

// Llama 3 405B, 54-day snapshot (FACTS §4.1, R1/R2 V): 16,384 GPUs on 2,048 8-GPU hosts, 1,296 h,
// 419 unexpected interruptions split by cause (the FACTS §4.1 table):
inline constexpr double kLlamaGpuHours = 16384.0 * 1296.0;
inline constexpr double kLlamaHostHours = 2048.0 * 1296.0;
// GPU hardware, the node goes to repair: faulty GPU 148, HBM3 72, SRAM 19, system processor 17,
// thermal interface/sensor 6.
inline constexpr double kLlamaGpuDown = 148 + 72 + 19 + 17 + 6;  // 262
// Host hardware, the node goes to repair: unplanned maintenance 32, NIC 7, SSD 3, PSU 3, CPU 2,
// DRAM 2, chassis 2, IO board 2.
inline constexpr double kLlamaHostDown = 32 + 7 + 3 + 3 + 2 + 2 + 2 + 2;  // 53
// Only the job dies, the node stays in service: software bug 54, network switch/cable 35, NCCL
// watchdog 7, silent data corruption 6, dependency 2.
inline constexpr double kLlamaJobOnly = 54 + 35 + 7 + 6 + 2;  // 104

inline constexpr ParamSpec kParams[] = {
    // --- communication (comm.h) ---
    {"comm.nvlink_efficiency", 0.85, "", false, "FACTS 2.1 (links reach 80-90% of spec; A100 235 of 300 GB/s)",
     "all-reduce time inside a node"},
    {"comm.network_efficiency", 0.73, "", false, "FACTS 2.3 N3 V (4x8 B200: 36.5 of 50 GB/s per NIC)",
     "all-reduce time across nodes"},
    {"comm.hierarchical_overlap", 1.0, "", false, "FACTS 2.2 (lower bound of the hierarchical all-reduce: max)",
     "all-reduce time across nodes"},
    {"comm.pcie_gbps", 31, "GB/s", false, "FACTS 2.1 (PCIe Gen4 x16)", "all-reduce time on nodes without NVLink"},
    {"comm.pcie_latency_us", 5, "us", true, "no FACTS row (8); a PCIe hop is microseconds",
     "small all-reduces on nodes without NVLink"},
    {"workload.comm_bytes", 2e9, "B", true, "trace jobs give no model size; the docs/models.md worked example",
     "placement efficiency, JCT of spread gangs"},
    {"workload.step_compute_s", 0.5, "s", true, "trace jobs give no step time; the worked example",
     "placement efficiency, JCT of spread gangs"},
    {"workload.comm_overlap", 0.5, "", true, "trace jobs give none; the worked example",
     "placement efficiency, JCT of spread gangs"},
    // --- power (power.h) ---
    {"power.clock_power_exponent", 3, "", true, "f*V^2 with V tracking f; checked against FACTS 3.1 T8",
     "power and clock under caps and thermal throttling"},
    {"power.min_clock", 0.6, "", true, "FACTS 3.2's power-capped H100 runs at 0.80; the controller's floor",
     "clock under caps and software throttling"},
    {"power.default_activity", 0.8, "", false, "FACTS 3.1 T6 V (86% of TDP at batch 128), T7 V (76% of node)",
     "power when a job class gives no activity"},
    {"workload.training_activity", 1.0, "", false,
     "FACTS 3.1 T7 V, D: 8x H100 at TDP + node static = 7.7 kW = 76% of the 10.2 kW rating",
     "energy, heat, throttling"},
    {"workload.inference_activity", 0.8, "", false, "FACTS 3.1 T6 V (H100 batch 128: 86% of TDP)",
     "energy, heat of inference jobs"},
    // Static (non-GPU) node draw by node class: NVLink baseboard nodes (HGX/DGX class) and PCIe
    // servers (GPUs as cards in a general-purpose host).
    {"power.nvlink_node_host_w", 500, "W", false,
     "FACTS 3.1 T7 V, D: 8x H100 node non-GPU 2.1 kW = 0.76 x 10.2 - 5.6 kW (500 + 8 x 200); "
     "S-MLE-ACC GB300: 1.9 kW per 4-GPU node",
     "IT and facility energy, rack power (inlet heating)"},
    {"power.nvlink_node_per_gpu_w", 200, "W", false, "FACTS 3.1 T7 V, D (see nvlink_node_host_w)",
     "IT and facility energy, rack power (inlet heating)"},
    {"power.pcie_node_host_w", 300, "W", true, "no FACTS row; a one- or two-socket host with disks and fans",
     "energy of PCIe nodes (L4, T4, A10, A30, H100-PCIe)"},
    {"power.pcie_node_per_gpu_w", 30, "W", true, "no FACTS row; slot, fan and NIC share per card",
     "energy of PCIe nodes"},
    // --- heat (thermal.h) ---
    {"thermal.air.rise_at_tdp_c", 50, "C", true,
     "no FACTS row; sized so a 25 C inlet gives 75 C at TDP, 10 C under max operating (T1)",
     "GPU temperature, throttled GPU-hours"},
    {"thermal.air.tau_s", 150, "s", false, "FACTS 3.2 T2 V: 10-15 min to thermal steady state (5 tau = 12.5 min)",
     "throttle onset time"},
    {"thermal.direct_liquid.rise_at_tdp_c", 25, "C", true, "no FACTS row; a cold plate conducts better than air",
     "GPU temperature in liquid zones"},
    {"thermal.direct_liquid.tau_s", 60, "s", true, "no FACTS row; less mass than a heat sink",
     "throttle onset in liquid zones"},
    {"thermal.immersion.rise_at_tdp_c", 30, "C", true, "no FACTS row", "GPU temperature in immersion zones"},
    {"thermal.immersion.tau_s", 300, "s", true, "no FACTS row; a fluid bath has a large thermal mass",
     "throttle onset in immersion zones"},
    {"thermal.inlet_rise_c_per_kw", 1.0, "C/kW", true,
     "no FACTS row; recirculation over the cooling limit (FACTS 3.4 T12 describes it, gives no figure)",
     "inlet of air racks over their cooling limit, throttled GPU-hours"},
    {"thermal.max_operating_c", 85, "C", false, "FACTS 3.2 T1 V (A100-SXM4-80GB); types without a row",
     "throttle onset"},
    {"thermal.hw_slowdown_c", 89, "C", false, "FACTS 3.2 T1 V (A100-SXM4-80GB); types without a row",
     "hardware slowdown"},
    {"thermal.hw_slowdown_clock", 0.5, "", false, "FACTS 3.2 T3 V: clocks cut by a factor of 2 or more",
     "speed under hardware slowdown"},
    {"thermal.H100-PCIe.max_operating_c", 87, "C", false, "FACTS 3.2 T2 V (H100 PCIe product brief)",
     "throttle onset of H100-PCIe"},
    {"thermal.H100-PCIe.hw_slowdown_c", 89, "C", false, "FACTS 3.2 T2 V", "hardware slowdown of H100-PCIe"},
    {"thermal.H100-SXM.max_operating_c", 87, "C", true,
     "FACTS 3.2 has no SXM row; the H100 PCIe figure (same GH100 die, T2)", "throttle onset of H100-SXM"},
    {"thermal.H100-SXM.hw_slowdown_c", 89, "C", true, "FACTS 3.2 has no SXM row; the H100 PCIe figure (T2)",
     "hardware slowdown of H100-SXM"},
    // --- failures (failure.h), Llama 3 405B split by cause (FACTS 4.1 R1 V, D) ---
    {"failure.gpu_mtbf_hours", kLlamaGpuHours / kLlamaGpuDown, "h", false,
     "FACTS 4.1 R1 V, D: 16,384 x 1,296 GPU-h / 262 GPU-hardware interruptions; the node goes to repair",
     "failures, lost and down GPU-hours, JCT"},
    {"failure.node_mtbf_hours", kLlamaHostHours / kLlamaHostDown, "h", false,
     "FACTS 4.1 R1 V, D: 2,048 x 1,296 host-h / 53 host-hardware interruptions; the node goes to repair",
     "failures, lost and down GPU-hours, JCT"},
    {"failure.job_only_mtbf_hours", kLlamaGpuHours / kLlamaJobOnly, "h", false,
     "FACTS 4.1 R1 V, D: 16,384 x 1,296 GPU-h / 104 software, network, NCCL, SDC interruptions; only the job dies",
     "failures, lost GPU-hours, JCT"},
    {"failure.gpu_repair_hours", 24, "h", true, "no FACTS MTTR row (7): drain, swap the GPU or board",
     "down GPU-hours, JCT"},
    {"failure.node_repair_hours", 4, "h", true, "no FACTS MTTR row (7): reboot, unplanned host maintenance",
     "down GPU-hours, JCT"},
    // --- checkpoints (checkpoint.h) ---
    {"checkpoint.bytes_per_param", 14, "B", false, "FACTS 4.2 (12-16), byte factors D7: 4 + 4 + 4 + 2",
     "checkpoint size from model size"},
    {"checkpoint.write_gbps", 57, "GB/s", false, "FACTS 4.2 R12 V, D: BLOOM 2.3 TB in 40 s", "checkpoint write"},
    {"checkpoint.read_gbps", 57, "GB/s", false, "FACTS 4.2 R12 V (read taken at the write bandwidth)",
     "restore"},
    {"checkpoint.restart_overhead_s", 60, "s", false, "FACTS 6.3 I4 V: cached-image cold start of a 70B model 40-90 s",
     "restore after a failure, preemption or reclaim"},
    {"workload.checkpoint_write_s", 60, "s", false,
     "FACTS 4.3 D worked example (delta = 60 s; 245B params at 14 B and 57 GB/s)",
     "checkpoint overhead, restore (= restart overhead + reading it back), reclaim losses"},
    // --- spot (spot.h) ---
    {"spot.mean_hours_between_reclaims", 24, "h", true, "no FACTS row; per spot node, set per provider",
     "spot reclaims, preemptions, down GPU-hours, JCT"},
    {"spot.mean_hours_reclaimed", 2, "h", true, "no FACTS row; until the capacity comes back",
     "down GPU-hours, JCT on spot capacity"},
    {"spot.notice_s", 120, "s", false, "AWS EC2 Spot documentation: a two-minute interruption notice",
     "work lost on reclaim"},
    // --- cost (cost.h); per-type prices are in data/gpus.yaml with their FACTS 1.3 keys ---
    {"cost.reserved_discount", 0.45, "", false, "FACTS 1.3 P2/P12 V: reserved 30-60% below on-demand",
     "cost of reserved capacity without a catalog price"},
    {"cost.spot_discount", 0.6, "", false, "FACTS 1.3 P10/P12 V: spot 40-70% / 50-80% lower",
     "cost of spot capacity without a catalog spot price"},
    {"cost.energy_usd_per_kwh", 0.10, "USD/kWh", true, "not in FACTS; set per site (0 for cloud capacity)",
     "cost_usd"},
};

consteval double lookup(std::string_view name) {
  for (const ParamSpec& p : kParams) {
    if (p.name == name) {
      return p.value;
    }
  }
  throw "models::param: no such parameter in models/param_table.h";  // a compile error in consteval
}

}  // namespace table

// The declared default of a parameter; a misspelled name does not compile.
consteval double param(std::string_view name) {
  return table::lookup(name);
}

}  // namespace boreas::models
