#pragma once
// A whole-site view of the power and thermal models: every rack of a cluster at a uniform GPU
// activity — rack power against its cooling limit, the inlet its GPUs see, their steady-state
// temperature and throttle state — and every zone's IT and facility power against its cap.
// `boreas models site` prints it; it previews where the engine will see throttling.

#include <string>
#include <vector>

#include "core/topology.h"
#include "models/power.h"
#include "models/thermal.h"

namespace boreas::models {

struct RackThermal {
  uint32_t rack = 0;
  uint32_t gpus = 0;
  double it_kw = 0;        // Σ node power at the activity, full clock
  double inlet_c = 0;      // after air-rack recirculation heating
  double gpu_temp_c = 0;   // hottest GPU's steady state at full clock
  ThrottleState throttle;  // the most throttled GPU of the rack
};

struct ZonePower {
  uint32_t zone = 0;
  double it_kw = 0;
  double facility_kw = 0;  // it_kw × zone PUE
  CappedClock cap;         // the clock that meets the zone's power cap (1 when uncapped)
};

struct SiteThermal {
  std::vector<RackThermal> racks;
  std::vector<ZonePower> zones;
};

// Every GPU at `activity` and full clock; steady state (t → ∞). One pass: the power reduction of
// throttled GPUs is not fed back into the rack inlet, so throttling is shown at its worst.
SiteThermal site_thermal(const Cluster& cluster, double activity, const PowerParams& power,
                         const ThermalParams& thermal);

}  // namespace boreas::models
