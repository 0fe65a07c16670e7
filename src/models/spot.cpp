#include "models/spot.h"

#include "models/param_check.h"

namespace boreas::models {

Status validate(const SpotParams& p) {
  return ParamCheck("spot")
      .positive("mean_hours_between_reclaims", p.mean_hours_between_reclaims)
      .positive("mean_hours_reclaimed", p.mean_hours_reclaimed)
      .at_least("notice (s)", p.notice.to_seconds(), 0)
      .status();
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
