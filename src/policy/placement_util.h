#pragma once
// Search helpers shared by the placements (internal to policy/).

#include <optional>
#include <vector>

#include "policy/placement.h"

namespace boreas::policy {

// Adds free GPUs of allowed nodes, fullest nodes first, until the gang is complete or none are left.
void fill_fullest_first(const JobSpec& job, const Scratch& s, TypeFilter& types, std::vector<GpuId>& out);
// The allowed node with the fewest free GPUs that still holds `need` (best fit), via the free index.
std::optional<NodeId> best_fit_node(const JobSpec& job, uint32_t need, const Scratch& s, TypeFilter& types);

}  // namespace boreas::policy
