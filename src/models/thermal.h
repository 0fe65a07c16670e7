#pragma once
// Heat under hybrid cooling (FACTS §3.2–3.4): a first-order RC model per GPU advanced in closed
// form, inlet heating of air racks over their cooling limit, thermal throttling, facility energy.

#include <string>
#include <vector>

#include "core/gpu.h"
#include "core/status.h"
#include "core/time.h"
#include "core/topology.h"
#include "models/param_table.h"
#include "models/power.h"

namespace boreas::models {

// Calibration per cooling kind: temperature rise above inlet/coolant at TDP (sets R = rise / TDP,
// so heat sinks are sized to their GPU) and the time constant τ = R·C.
struct CoolingParams {
  double rise_at_tdp_c = 0;
  double tau_s = 0;
};

// Throttle thresholds of one GPU type (catalog name), where FACTS §3.2 has them.
struct ThrottleThresholds {
  std::string gpu;
  double max_operating_c = param("thermal.max_operating_c");
  double hw_slowdown_c = param("thermal.hw_slowdown_c");
};

struct ThermalParams {
  // 25 °C air → 75 °C at TDP; τ 150 s: 5τ = 12.5 min soak (T2)
  CoolingParams air{param("thermal.air.rise_at_tdp_c"), param("thermal.air.tau_s")};
  // 35 °C warm water → 60 °C (T20 coolant 32–45 °C)
  CoolingParams direct_liquid{param("thermal.direct_liquid.rise_at_tdp_c"), param("thermal.direct_liquid.tau_s")};
  // large fluid mass: slow (assumption)
  CoolingParams immersion{param("thermal.immersion.rise_at_tdp_c"), param("thermal.immersion.tau_s")};
  // Air racks above their cooling limit recirculate hot air: inlet rise per kW over the limit.
  double inlet_rise_c_per_kw = param("thermal.inlet_rise_c_per_kw");
  double max_operating_c = param("thermal.max_operating_c");  // SW slowdown (A100-SXM4-80GB, FACTS §3.2 T1)
  double hw_slowdown_c = param("thermal.hw_slowdown_c");      // HW slowdown (A100, FACTS §3.2 T1)
  double hw_slowdown_clock = param("thermal.hw_slowdown_clock");  // "clocks cut by a factor of 2 or more" (T3)
  // Per-type thresholds overriding the two above: H100 PCIe 87/89 °C (FACTS §3.2, T2); H100-SXM
  // takes the PCIe part's figures (same die; FACTS has no SXM row: an assumption).
  std::vector<ThrottleThresholds> by_type{
      {"H100-PCIe", param("thermal.H100-PCIe.max_operating_c"), param("thermal.H100-PCIe.hw_slowdown_c")},
      {"H100-SXM", param("thermal.H100-SXM.max_operating_c"), param("thermal.H100-SXM.hw_slowdown_c")}};
};

Status validate(const ThermalParams& p);

// The thresholds for a type: its by_type row, else max_operating_c / hw_slowdown_c.
ThrottleThresholds thresholds_for(const GpuType& type, const ThermalParams& p);

const CoolingParams& cooling_params(CoolingKind kind, const ThermalParams& p);

struct Rc {
  double r_c_per_w = 0;  // °C per W
  double c_j_per_c = 0;  // J per °C
  double tau_s() const { return r_c_per_w * c_j_per_c; }
};
// R and C of one GPU of `type` under `kind` of cooling (TDP must be > 0).
Rc rc_for(const GpuType& type, CoolingKind kind, const ThermalParams& p);

// T_ss = T_in + P·R.
inline double steady_state_c(double inlet_c, double power_w, const Rc& rc) {
  return inlet_c + power_w * rc.r_c_per_w;
}
// T(t) = T_in + P·R + (T0 − T_in − P·R)·e^(−t/RC), for any interval at constant P.
double advance_c(double t0_c, double inlet_c, double power_w, const Rc& rc, Duration dt);
// τ·ln((T_ss − T0)/(T_ss − threshold)): time_to_reach's case of a steady state over the threshold.
Duration time_to_rise(double t0_c, double threshold_c, double steady_c, const Rc& rc);
// Time until T reaches `threshold_c` from t0_c: zero when already there, infinite when the steady
// state stays below it; else time_to_rise. The two early returns are in line (the rack refresh
// asks this of every busy GPU, and nearly all of them never reach their limit).
inline Duration time_to_reach(double t0_c, double threshold_c, double inlet_c, double power_w, const Rc& rc) {
  if (t0_c >= threshold_c) {
    return Duration::zero();
  }
  const double ss = steady_state_c(inlet_c, power_w, rc);
  if (ss <= threshold_c) {
    return Duration::infinite();
  }
  return time_to_rise(t0_c, threshold_c, ss, rc);
}

// The inlet a rack's GPUs see: the zone's inlet, raised for air racks drawing more than their
// cooling limit (limit 0 = unlimited). Liquid and immersion racks are held by their CDU.
double rack_inlet_c(const Zone& zone, const Rack& rack, double rack_power_kw, const ThermalParams& p);

enum class Throttle { kNone, kSoftware, kHardware };
struct ThrottleState {
  Throttle level = Throttle::kNone;
  double clock = 1;  // clock factor the GPU settles at
};
// The steady throttle state of a GPU at `activity` and this inlet: none when T_ss at full clock is
// ≤ max_operating; software: the clock whose power holds T at max_operating (not below min_clock);
// hardware: when even that leaves T ≥ hw_slowdown, the clock drops to hw_slowdown_clock.
// Thresholds come from thresholds_for(type).
ThrottleState throttle_state(const GpuType& type, double activity, double inlet_c, const Rc& rc,
                             const PowerParams& power, const ThermalParams& p);

// What the engine schedules for a GPU that starts running at `t0_c`: when it will reach its
// max-operating temperature at full clock (infinite when it never does) and the state it then
// settles in. Between now and then the GPU runs at full clock.
struct ThermalOutlook {
  Duration throttle_in = Duration::infinite();
  ThrottleState after;
  double steady_c = 0;  // at full clock
};
ThermalOutlook thermal_outlook(const GpuType& type, double activity, double t0_c, double inlet_c,
                               const Rc& rc, const PowerParams& power, const ThermalParams& p);

// Facility energy = IT energy × PUE (FACTS §3.3).
double facility_kwh(double it_kwh, double pue);
// PUE by cooling kind when a zone gives none: air 1.5 (typical 1.3–1.8, T16/T17), direct liquid
// 1.15 (1.1–1.2, R), immersion 1.05 (vendor best case 1.02–1.03, T17, rounded up).
double default_pue(CoolingKind kind);

}  // namespace boreas::models
