#include "models/spot.h"

#include <string>

namespace boreas::models {

Status validate(const SpotParams& p) {
  if (!(p.mean_hours_between_reclaims > 0) || !(p.mean_hours_reclaimed > 0)) {
    return invalid_argument(
        "spot model: mean_hours_between_reclaims and mean_hours_reclaimed must be positive");
  }
  if (p.notice < Duration::zero()) {
    return invalid_argument("spot model: notice must not be negative, got " + to_string(p.notice));
  }
  return Status::ok();
}

SpotReclaim next_reclaim(const SpotParams& p, uint32_t nodes, Rng& rng) {
  const double rate = nodes / p.mean_hours_between_reclaims;
  SpotReclaim r;
  r.notice_after = hours_to_duration(exponential(rng, rate));
  r.reclaim_after = r.notice_after + p.notice;
  r.returns_after = r.reclaim_after + hours_to_duration(exponential(rng, 1.0 / p.mean_hours_reclaimed));
  r.node = static_cast<uint32_t>(uniform01(rng) * nodes);
  return r;
}

Duration work_lost_on_reclaim(Duration since_checkpoint, Duration checkpoint_write, Duration notice) {
  return checkpoint_write <= notice ? Duration::zero() : since_checkpoint;
}

}  // namespace boreas::models
