#include "models/validation.h"

#include <cmath>
#include <utility>

#include "models/comm.h"
#include "models/failure.h"
#include "models/power.h"
#include "models/thermal.h"
#include "models/throughput.h"

namespace boreas::models {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

// Example fabric (docs/models.md): per-GPU NIC 50 GB/s (8 × 400G per node, N3); spine 2:1
// oversubscribed (assumption). Per-step latency: NVLink 3 µs (8×A100: 44 µs per 14-step all-reduce
// at 32 KB, N3); leaf 70 µs, fitted to 4×8 B200 at 16 MiB (12.5% of NIC spec, N3); spine 80 µs
// (assumption: FACTS §7.8 has no hop latency).
std::vector<FabricTier> example_fabric(double nvlink_gbps) {
  return {{"nvlink", nvlink_gbps, Duration::micros(3)},
          {"leaf", 50, Duration::micros(70)},
          {"spine", 25, Duration::micros(80)}};
}

double seconds(double nvlink_gbps, PlacementSummary pl, double bytes) {
  const CommParams params;
  const PlacementLinks links = placement_links(example_fabric(nvlink_gbps), true, pl, params);
  return allreduce_seconds(pl, bytes, links, params);
}

double busbw(double nvlink_gbps, PlacementSummary pl, double bytes) {
  return allreduce_busbw_gbps(pl.gpus(), bytes, seconds(nvlink_gbps, pl, bytes));
}

void add_comm_rows(std::vector<ValidationRow>& rows) {
  rows.push_back({"all-reduce busbw, 8x H100 in one node, 8 GiB", busbw(450, {8, 1, 1}, 8 * kGiB), "GB/s",
                  "460-480", "FACTS 2.3 N2/N3 V"});
  rows.push_back({"all-reduce busbw, 8x A100 in one node, 8 GiB", busbw(300, {8, 1, 1}, 8 * kGiB), "GB/s",
                  "235", "FACTS 2.3 N3 V"});
  const double one = busbw(900, {8, 1, 1}, 4 * kGiB);
  const double four = busbw(900, {8, 4, 1}, 4 * kGiB);
  rows.push_back(
      {"all-reduce busbw, 8x B200 in one node, 4 GiB", one, "GB/s", "741 (846 at 16 GiB)", "FACTS 2.3 N3 V"});
  rows.push_back({"all-reduce busbw, 4 nodes x 8 B200, 4 GiB (NIC efficiency fitted here)", four, "GB/s",
                  "377", "FACTS 2.3 N3 V"});
  rows.push_back({"busbw ratio 1 node / 4 nodes, B200, 4 GiB", one / four, "x",
                  "1.97 (about 2x above 512 MiB)", "FACTS 2.2/5.1 N3 V"});
  rows.push_back({"busbw, 4 nodes x 8 B200, 16 MiB (leaf latency fitted here)",
                  busbw(900, {8, 4, 1}, 16 * 1024 * 1024.0), "GB/s", "12.5% of NIC spec: about 65",
                  "FACTS 2.3 N3 V"});
  const double kib32 = 32 * 1024.0;
  rows.push_back({"8x A100 all-reduce time at 32 KB", seconds(300, {8, 1, 1}, kib32) * 1e6, "us", "44",
                  "FACTS 2.2 N3 V"});
  rows.push_back({"8x A100 all-reduce time at 1 MB", seconds(300, {8, 1, 1}, 1e6) * 1e6, "us", "about 100",
                  "FACTS 2.2 N3 V"});
  for (double bytes : {kib32, 1024.0 * 1024}) {
    rows.push_back({"B200 4 nodes / 1 node all-reduce time at " +
                        std::to_string(static_cast<int>(bytes / 1024)) + " KiB",
                    seconds(900, {8, 4, 1}, bytes) / seconds(900, {8, 1, 1}, bytes), "x", "7-120 below 1 MiB",
                    "FACTS 2.2 N3 V"});
  }
}

void add_throughput_power_rows(std::vector<ValidationRow>& rows) {
  const ThroughputModel m(default_throughput_params());
  GpuType a100;
  a100.name = "A100-80G";
  a100.bf16_tflops = 312;
  a100.memory_bandwidth_gbps = 2039;
  GpuType h100;
  h100.name = "H100-SXM";
  h100.bf16_tflops = 989;
  h100.memory_bandwidth_gbps = 3350;
  rows.push_back({"llm-inference speed H100 / A100", m.relative_speed("llm-inference", a100, h100), "x",
                  "about 2", "FACTS 6.2 I2 V"});
  rows.push_back({"transformer-training speed H100 / A100",
                  m.relative_speed("transformer-training", a100, h100), "x", "prediction", "-"});
  GpuType v100;
  v100.tdp_w = 250;
  const double clock = clock_for_cap(v100, 1.0, 175, PowerParams{}).clock;
  rows.push_back({"V100 clock under a 250 -> 175 W cap", clock, "", "6-7% more latency", "FACTS 3.1 T8 V"});
  const size_t llm = m.class_index("llm-inference");
  rows.push_back({"llm-inference slowdown at that clock (A100 shares)",
                  m.rate(llm, a100) / m.rate(llm, a100, clock), "x", "1.06-1.07", "FACTS 3.1 T8 V"});
}

void add_thermal_rows(std::vector<ValidationRow>& rows) {
  const ThermalParams p;
  GpuType h100;
  h100.tdp_w = 700;
  const Rc air = rc_for(h100, CoolingKind::kAir, p);
  rows.push_back({"H100 air, 25 C inlet, steady state at TDP", steady_state_c(25, 700, air), "C",
                  "below 85 (max operating)", "FACTS 3.2 T1 V"});
  rows.push_back({"H100 air, time to 99% of the step (from idle to TDP)", std::log(100.0) * air.tau_s() / 60,
                  "min", "10-15 min to steady state", "FACTS 3.2/3.4 T2 V"});
  rows.push_back({"H100 air, throttle onset at 85 C with 40 C inlet (from 40 C)",
                  time_to_reach(40, 85, 40, 700, air).to_seconds(), "s", "minutes", "FACTS 3.2 T2 V"});
  rows.push_back({"H100 direct liquid, 35 C coolant, steady state at TDP",
                  steady_state_c(35, 700, rc_for(h100, CoolingKind::kDirectLiquid, p)), "C", "plausible",
                  "-"});
}

void add_failure_rows(std::vector<ValidationRow>& rows, uint64_t seed) {
  const FailureProcess process = job_failure_process(llama3_failure_params(), 16384, 2048);
  Rng rng(seed);
  rows.push_back({"16,384-GPU job: simulated interruption interval (20,000 failures)",
                  simulated_failure_interval_hours(process, 20000, rng), "h", "3.1", "FACTS 4.1 D"});
}

void add_checkpoint(ValidationReport& report, uint64_t seed) {
  constexpr double kMtbf = 3.1 * 3600;
  report.young_s = young_interval_s(300, kMtbf);
  report.daly_s = daly_interval_s(300, kMtbf);
  std::vector<double> grid;
  for (double f : {0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0}) {
    grid.push_back(f * report.young_s);
  }
  grid.push_back(report.daly_s);
  report.sweep = sweep_intervals(grid, 20000 * 3600.0, 300, 600, kMtbf, seed);
  report.rows.push_back({"Young interval, M = 3.1 h, checkpoint 60 s", young_interval_s(60, kMtbf) / 60,
                         "min", "about 19", "FACTS 4.3 D"});
  report.rows.push_back(
      {"Young interval, M = 3.1 h, checkpoint 300 s", report.young_s / 60, "min", "about 43", "FACTS 4.3 D"});
  report.rows.push_back({"BLOOM-176B checkpoint write", checkpoint_cost(176e9, CheckpointParams{}).write_s,
                         "s", "40 (2.3 TB)", "FACTS 4.2 R12 V"});
}

void add_split(ValidationReport& report) {
  // 32 H100 GPUs, 2 GB of gradients per step (1B parameters in BF16), 0.5 s of compute per
  // step, half the communication hidden behind compute.
  constexpr double kBytes = 2e9;
  constexpr double kCompute = 0.5;
  constexpr double kOverlap = 0.5;
  const CommParams params;
  const std::vector<std::pair<std::string, PlacementSummary>> cases = {
      {"4 nodes x 8, one leaf (packed)", {8, 4, 1}},
      {"4 nodes x 8, two racks/leaves", {8, 4, 2}},
      {"16 nodes x 2, four racks/leaves", {2, 16, 4}},
      {"32 nodes x 1, eight racks/leaves", {1, 32, 8}}};
  double ideal = 0;
  for (const auto& [name, pl] : cases) {
    const PlacementLinks links = placement_links(example_fabric(450), true, pl, params);
    const double t = allreduce_seconds(pl, kBytes, links, params);
    ideal = ideal == 0 ? t : ideal;
    report.split.push_back({name, t * 1e3, allreduce_busbw_gbps(pl.gpus(), kBytes, t),
                            placement_efficiency(kCompute, ideal, t, kOverlap)});
  }
}

}  // namespace

ValidationReport run_validation(uint64_t seed) {
  ValidationReport report;
  add_comm_rows(report.rows);
  add_throughput_power_rows(report.rows);
  add_thermal_rows(report.rows);
  add_failure_rows(report.rows, seed);
  add_checkpoint(report, seed);
  add_split(report);
  return report;
}

}  // namespace boreas::models
