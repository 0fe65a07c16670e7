#pragma once
// Spot capacity: reclaims of spot nodes as an exponential process with a notice period; jobs on a
// reclaimed node checkpoint during the notice when their checkpoint fits in it.

#include <cstdint>

#include "core/status.h"
#include "core/time.h"
#include "models/param_table.h"
#include "models/random.h"

namespace boreas::models {

struct SpotParams {
  // FACTS has no reclaim-rate or notice row: these are assumptions to set per provider.
  double mean_hours_between_reclaims = param("spot.mean_hours_between_reclaims");  // per spot node
  double mean_hours_reclaimed = param("spot.mean_hours_reclaimed");  // until the capacity comes back
  // AWS's two-minute interruption notice
  Duration notice = Duration::seconds(static_cast<int64_t>(param("spot.notice_s")));
};
Status validate(const SpotParams& p);

struct SpotReclaim {
  Duration notice_after;   // from the draw until the notice arrives
  Duration reclaim_after;  // from the draw until the node is taken (notice_after + notice)
  Duration returns_after;  // from the draw until the node is back
  uint32_t node = 0;       // index within the spot group
};
// The next reclaim among `nodes` spot nodes (all in service); nodes must be > 0.
SpotReclaim next_reclaim(const SpotParams& p, uint32_t nodes, Rng& rng);

// Work lost when a node is reclaimed: none when the job can write a checkpoint within the
// notice, else everything since its last checkpoint.
Duration work_lost_on_reclaim(Duration since_checkpoint, Duration checkpoint_write, Duration notice);

}  // namespace boreas::models
