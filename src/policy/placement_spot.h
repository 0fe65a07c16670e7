#pragma once
// Spot preference, around any placement: a preemptible job tries spot capacity first (it can stop
// at a reclaim notice and resume from its checkpoint, and spot GPUs cost less); a job that may not
// be preempted tries on-demand capacity first. Either falls back to the whole cluster when its side
// has no room. On a cluster without spot zones it is the inner placement, unchanged.

#include <memory>

#include "policy/placement.h"

namespace boreas::policy {

std::unique_ptr<Placement> with_spot_preference(std::unique_ptr<Placement> inner);

}  // namespace boreas::policy
