#include "models/thermal.h"

#include <cmath>

#include "models/param_check.h"

namespace boreas::models {

Status validate(const ThermalParams& p) {
  ParamCheck check("thermal");
  for (const ThrottleThresholds& t : p.by_type) {
    check.at_least("by_type[" + t.gpu + "].hw_slowdown_c", t.hw_slowdown_c, t.max_operating_c);
  }
  return check.positive("air.rise_at_tdp_c", p.air.rise_at_tdp_c)
      .positive("air.tau_s", p.air.tau_s)
      .positive("direct_liquid.rise_at_tdp_c", p.direct_liquid.rise_at_tdp_c)
      .positive("direct_liquid.tau_s", p.direct_liquid.tau_s)
      .positive("immersion.rise_at_tdp_c", p.immersion.rise_at_tdp_c)
      .positive("immersion.tau_s", p.immersion.tau_s)
      .at_least("inlet_rise_c_per_kw", p.inlet_rise_c_per_kw, 0)
      .at_least("hw_slowdown_c", p.hw_slowdown_c, p.max_operating_c)
      .positive("hw_slowdown_clock", p.hw_slowdown_clock)
      .in("hw_slowdown_clock", p.hw_slowdown_clock, 0, 1)
      .status();
}

const CoolingParams& cooling_params(CoolingKind kind, const ThermalParams& p) {
  switch (kind) {
    case CoolingKind::kDirectLiquid:
      return p.direct_liquid;
    case CoolingKind::kImmersion:
      return p.immersion;
    case CoolingKind::kAir:
      break;
  }
  return p.air;
}

Rc rc_for(const GpuType& type, CoolingKind kind, const ThermalParams& p) {
  const CoolingParams& c = cooling_params(kind, p);
  const double r = c.rise_at_tdp_c / type.tdp_w;
  return {r, c.tau_s / r};
}

double advance_c(double t0_c, double inlet_c, double power_w, const Rc& rc, Duration dt) {
  const double ss = steady_state_c(inlet_c, power_w, rc);
  return ss + (t0_c - ss) * std::exp(-dt.to_seconds() / rc.tau_s());
}

Duration time_to_rise(double t0_c, double threshold_c, double steady_c, const Rc& rc) {
  return Duration::from_seconds(rc.tau_s() * std::log((steady_c - t0_c) / (steady_c - threshold_c)));
}

double rack_inlet_c(const Zone& zone, const Rack& rack, double rack_power_kw, const ThermalParams& p) {
  if (zone.cooling != CoolingKind::kAir || rack.cooling_limit_kw <= 0 ||
      rack_power_kw <= rack.cooling_limit_kw) {
    return zone.inlet_c;
  }
  return zone.inlet_c + p.inlet_rise_c_per_kw * (rack_power_kw - rack.cooling_limit_kw);
}

ThrottleThresholds thresholds_for(const GpuType& type, const ThermalParams& p) {
  for (const ThrottleThresholds& t : p.by_type) {
    if (t.gpu == type.name) {
      return t;
    }
  }
  return {type.name, p.max_operating_c, p.hw_slowdown_c};
}

ThrottleState throttle_state(const GpuType& type, double activity, double inlet_c, const Rc& rc,
                             const PowerParams& power, const ThermalParams& p) {
  const ThrottleThresholds limits = thresholds_for(type, p);
  const double full_w = gpu_power_w(type, activity, 1.0, power);
  if (steady_state_c(inlet_c, full_w, rc) <= limits.max_operating_c) {
    return {};
  }
  // Holding T at max_operating is a power cap of (max_operating − inlet) / R.
  const double cap_w = (limits.max_operating_c - inlet_c) / rc.r_c_per_w;
  const CappedClock capped = clock_for_cap(type, activity, cap_w, power);
  const double sw_w = gpu_power_w(type, activity, capped.clock, power);
  if (steady_state_c(inlet_c, sw_w, rc) >= limits.hw_slowdown_c) {
    return {Throttle::kHardware, p.hw_slowdown_clock};
  }
  return {Throttle::kSoftware, capped.clock};
}

ThermalOutlook thermal_outlook(const GpuType& type, double activity, double t0_c, double inlet_c,
                               const Rc& rc, const PowerParams& power, const ThermalParams& p) {
  ThermalOutlook o;
  const double full_w = gpu_power_w(type, activity, 1.0, power);
  o.steady_c = steady_state_c(inlet_c, full_w, rc);
  o.after = throttle_state(type, activity, inlet_c, rc, power, p);
  if (o.after.level != Throttle::kNone) {
    o.throttle_in = time_to_reach(t0_c, thresholds_for(type, p).max_operating_c, inlet_c, full_w, rc);
  }
  return o;
}

double facility_kwh(double it_kwh, double pue) {
  return it_kwh * pue;
}

double default_pue(CoolingKind kind) {
  switch (kind) {
    case CoolingKind::kDirectLiquid:
      return 1.15;
    case CoolingKind::kImmersion:
      return 1.05;
    case CoolingKind::kAir:
      break;
  }
  return 1.5;
}

}  // namespace boreas::models
