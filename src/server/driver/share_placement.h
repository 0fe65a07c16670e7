#pragma once
// Where a job on a share of one GPU goes (docs/live.md, "Sharing a GPU"): the shared GPUs with
// room for its milli and memory first, else the free ones; among them the GPU whose node's
// fragmentation (FGD's measure, src/frag) grows least against the jobs the daemon holds now; ties
// to the least compute left, then the lowest GPU. And the queue ceiling a share counts against.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/queue.h"
#include "core/topology.h"
#include "frag/fragmentation.h"
#include "server/jobs/gpu_share.h"
#include "server/jobs/live_job.h"
#include "state/cluster_state.h"

namespace boreas::server {

// What the share placer reads: the state, the cluster and the drained nodes.
struct ShareView {
  const state::ClusterState& state;
  const Cluster& cluster;
  const std::vector<bool>& drained;
};

struct ShareChoice {
  GpuId gpu;
  ShareSize size;
  bool shared = false;   // beside other shares (else a free GPU)
  double growth = 0;     // the node's fragmentation after − before, milli
  uint32_t left = 0;     // milli left on the GPU after
};

// The jobs in memory as FGD's pods: the target workload the measure weighs fragments against.
std::vector<frag::TaskClass> live_mix(const std::map<uint32_t, LiveJob>& jobs);
// The best GPU for `req` now, if any fits.
std::optional<ShareChoice> choose_share(const ShareView& v, const SubmitRequest& req,
                                        const std::vector<frag::TaskClass>& mix);
// Why a share of `milli` would pass its queue's ceiling (its quotas' guarantees plus borrow limits
// over all types, the queue's whole GPUs × 1000 plus its shares' milli); none when it would not, or
// the queue has no ceiling.
std::optional<std::string> over_ceiling(const std::optional<QueueTree>& queues, const state::ClusterState& state,
                                        Symbol queue_symbol, const std::string& queue, uint32_t milli);

}  // namespace boreas::server
