#pragma once
// The rack refresh's common cases, answered in line (Physics::refresh_rack; exactness tested in
// tests/thermal_reach_test.cpp against the plain computation).

#include <algorithm>
#include <limits>

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

// A rack's GPUs gathered in the refresh's first pass, before its inlet is known, so that one test
// after it can tell that quiet_in_refresh holds for every GPU and the second pass has nothing to do.
// Sufficient, not necessary, and stricter than quiet_in_refresh: every GPU at full clock (the
// others are below_full_clock), and on a node with a thermal model (R > 0) every GPU, idle or busy,
// below its onset (so below its limit) with its steady state bounded by inlet + the node's largest
// power × R ≤ the lowest limit of such a node. Floating × by R > 0 and + are monotone, so
// inlet + P·R ≤ inlet + max P·R ≤ min limit ≤ its limit holds as computed (steady_state_c is the
// same inlet + P·R). A NaN power makes the powers' sum NaN, which all_quiet refuses.
class QuietRack {
 public:
  // A GPU at full clock of the node being gathered.
  void gpu(double temp_c, double onset_c, double power_w) {
    node_cool_ &= temp_c < onset_c;
    node_max_w_ = std::max(node_max_w_, power_w);
  }
  void below_full_clock() { loud_ = true; }
  // Ends the node whose GPUs were just gathered: their limit and RC.
  void end_node(double max_c, const models::Rc& rc) {
    if (rc.r_c_per_w > 0) {
      loud_ |= !node_cool_;
      max_rise_c_ = std::max(max_rise_c_, node_max_w_ * rc.r_c_per_w);
      min_max_c_ = std::min(min_max_c_, max_c);
    }
    node_cool_ = true;
    node_max_w_ = -std::numeric_limits<double>::infinity();
  }
  // Whether quiet_in_refresh holds for every GPU gathered, at this inlet; `power_sum_w` is a sum
  // with every gathered GPU's power in it.
  bool all_quiet(double inlet_c, double power_sum_w) const {
    return !loud_ && power_sum_w == power_sum_w && inlet_c + max_rise_c_ <= min_max_c_;
  }

 private:
  bool loud_ = false;
  bool node_cool_ = true;
  double node_max_w_ = -std::numeric_limits<double>::infinity();
  double max_rise_c_ = -std::numeric_limits<double>::infinity();
  double min_max_c_ = std::numeric_limits<double>::infinity();
};

}  // namespace boreas::sim
