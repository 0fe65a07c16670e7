#pragma once
// `cool`: thermal- and power-aware placement. It estimates every rack's and zone's power from the
// allocations in the view (models/power.h), steers long jobs — the ones that heat a rack for
// hours — to liquid- or immersion-cooled zones, keeps air racks under their cooling limit, racks
// under their power limit and zones under their power cap, and skips zones whose inlet alone
// would throttle a busy GPU (models/thermal.h). When no placement meets all of that it takes the
// node whose rack loses the least clock (a gang larger than a node: `pack`, best fit) rather than
// leaving the job waiting.

#include <memory>

#include "core/time.h"
#include "models/power.h"
#include "models/thermal.h"
#include "policy/placement.h"

namespace boreas::policy {

struct CoolOptions {
  // A job expected to run at least this long (its time limit, else a prediction from completed
  // jobs: policy/duration_estimate.h — never its true duration) is "hot": liquid and immersion
  // zones first.
  Duration long_job = Duration::hours(1);
  // Activity assumed for every busy GPU: the engine's training activity (sim::PhysicsOptions, at
  // TDP), the worst case for heat; idle GPUs draw idle_w.
  double activity = 1.0;
  models::PowerParams power;
  models::ThermalParams thermal;
};

Status validate(const CoolOptions& o);
std::unique_ptr<Placement> make_cool_placement(const CoolOptions& options);

}  // namespace boreas::policy
