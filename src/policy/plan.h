#pragma once
// What a scheduler decides in one round. The driver (simulator or daemon) applies preemptions
// first, then starts, through ClusterState only.

#include <optional>
#include <vector>

#include "core/ids.h"
#include "core/time.h"

namespace boreas::policy {

struct Start {
  JobId job;
  std::vector<GpuId> gpus;
};

struct Plan {
  std::vector<JobId> preemptions;
  std::vector<Start> starts;
  std::optional<Time> wake_at;  // ask to be called again then, even if nothing else happens
  // Later issues add resizes and migrations here.
};

}  // namespace boreas::policy
