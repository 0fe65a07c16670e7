#pragma once
// The rack refresh's common cases, answered in line (Physics::refresh_rack; exactness tested in
// tests/thermal_reach_test.cpp against the plain computation).

#include <algorithm>
#include <limits>
#include <span>

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

// Whether every temperature is below the onset (so below the limit the onset is under).
inline bool below_onset(std::span<const double> temps_c, double onset_c) {
  bool below = true;
  for (double t : temps_c) {
    below &= t < onset_c;
  }
  return below;
}

// A rack's nodes gathered in the refresh's first pass, before its inlet is known, so that one test
// after it can tell that quiet_in_refresh holds for every GPU and the second pass has nothing to do.
// Sufficient, not necessary, and stricter than quiet_in_refresh: every GPU at full clock, and on a
// node with a thermal model (R > 0) every GPU, idle or busy, below its onset (so below its limit)
// with its steady state bounded by inlet + the node's largest power × R ≤ the lowest limit of such
// a node. Floating × by R > 0 and + are monotone, so inlet + P·R ≤ inlet + max P·R ≤ min limit ≤
// its limit holds as computed (steady_state_c is the same inlet + P·R). A NaN power, which the
// largest power skips, makes the powers' sum NaN, which all_quiet refuses.
class QuietRack {
 public:
  // One node: whether all its GPUs are at full clock, whether all are below_onset, their largest
  // power (std::max from −∞), its limit and RC.
  void add_node(bool full_clock, bool cool, double max_w, double max_c, const models::Rc& rc) {
    loud_ |= !full_clock;
    if (rc.r_c_per_w > 0) {
      loud_ |= !cool;
      max_rise_c_ = std::max(max_rise_c_, max_w * rc.r_c_per_w);
      min_max_c_ = std::min(min_max_c_, max_c);
    }
  }
  // Whether quiet_in_refresh holds for every GPU of the nodes added, at this inlet; `power_sum_w`
  // is a sum with every one of their powers in it.
  bool all_quiet(double inlet_c, double power_sum_w) const {
    return !loud_ && power_sum_w == power_sum_w && inlet_c + max_rise_c_ <= min_max_c_;
  }

 private:
  bool loud_ = false;
  double max_rise_c_ = -std::numeric_limits<double>::infinity();
  double min_max_c_ = std::numeric_limits<double>::infinity();
};

}  // namespace boreas::sim
