#pragma once
// The refresh's common case of models::time_to_reach, answered in line: a GPU below its limit whose
// steady state (models::steady_state_c, the same expression) stays at or under it never reaches
// the limit (time_to_reach returns infinite). Every other case goes to time_to_reach.

#include "core/time.h"
#include "models/thermal.h"

namespace boreas::sim {

inline bool never_reaches(double t0_c, double threshold_c, double inlet_c, double power_w, const models::Rc& rc) {
  return t0_c < threshold_c && inlet_c + power_w * rc.r_c_per_w <= threshold_c;
}

// models::time_to_reach with the common case first.
inline Duration reach_time(double t0_c, double threshold_c, double inlet_c, double power_w, const models::Rc& rc) {
  return never_reaches(t0_c, threshold_c, inlet_c, power_w, rc)
             ? Duration::infinite()
             : models::time_to_reach(t0_c, threshold_c, inlet_c, power_w, rc);
}

}  // namespace boreas::sim
