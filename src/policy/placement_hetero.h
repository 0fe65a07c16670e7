#pragma once
// `hetero`: heterogeneity-aware placement in the spirit of Gavel (OSDI 2020). Each round it solves
// the max-min fair allocation LP (placement_hetero_lp.h) over the job × GPU-type throughput
// matrix of models::ThroughputTable for the running jobs and the first `max_jobs` pending ones,
// then places a job on the types the LP gives it most of (one type per gang, best fit inside it).
// Types the LP does not favour are used only after the job has waited `max_wait`.

#include <memory>

#include "core/time.h"
#include "models/throughput.h"
#include "policy/placement.h"

namespace boreas::policy {

struct HeteroOptions {
  uint32_t max_jobs = 256;  // pending jobs (arrival order) in the LP, besides the running ones
  // 0 = work-conserving (favoured types first, then any). A positive wait can livelock a preemptive
  // order (las, srtf…): its count-based walk grants, the placement declines, every round.
  Duration max_wait = Duration::zero();
  double favoured_share = 0.1;  // a type is favoured when its share ≥ this × the group's largest
  models::ThroughputParams throughput = models::default_throughput_params();
};

Status validate(const HeteroOptions& o);
std::unique_ptr<Placement> make_hetero_placement(const HeteroOptions& options);

}  // namespace boreas::policy
