#pragma once
// The rack refresh's common cases, answered in line (Physics::refresh_rack; exactness tested in
// tests/thermal_reach_test.cpp against the plain computation).

#include "models/thermal.h"

namespace boreas::sim {

// A GPU below its limit whose steady state stays at or under it never reaches the limit:
// models::time_to_reach returns infinite.
inline bool never_reaches(double t0_c, double threshold_c, double inlet_c, double power_w, const models::Rc& rc) {
  return (t0_c < threshold_c) & (models::steady_state_c(inlet_c, power_w, rc) <= threshold_c);
}

// Whether the refresh's second pass leaves the GPU as it is: at full clock, with no throttle test
// due (idle, or busy below its onset temperature) and idle or never reaching its limit at this
// inlet. The usual case; its tests are combined without a branch each, as idle and busy GPUs
// alternate unpredictably along a rack.
inline bool quiet_in_refresh(double act, double clock, double temp_c, double onset_c, double max_c, double inlet_c,
                             double power_w, const models::Rc& rc) {
  const bool busy = (act > 0) & (rc.r_c_per_w > 0);
  const bool cool = (temp_c < onset_c) & never_reaches(temp_c, max_c, inlet_c, power_w, rc);
  return (clock == 1.0) & (!busy | cool);
}

}  // namespace boreas::sim
