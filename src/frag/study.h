#pragma once
// Policies x seeds on one cluster and pod list, run on worker threads; results in a fixed order
// whatever the thread count. The named metrics of `boreas frag` come from each seed's curve.

#include <cstdint>
#include <vector>

#include "frag/model.h"
#include "frag/policy.h"
#include "frag/replay.h"

namespace boreas::frag {

struct StudyInput {
  std::vector<Node> nodes;
  std::vector<PodShape> pods;
  std::vector<Policy> policies;
  std::vector<uint64_t> seeds;
  double ratio = 1.3;    // arrived GPU demand at the end, x capacity
  // Share of the pods the task classes of the fragmentation measure cover (1 = every class).
  // FGD's scripts use 0.95; see docs/fragmentation.md for why the default here is 1.
  double coverage = 1.0;
  unsigned threads = 1;
};

// The summary metrics of one replay, in percent (docs/fragmentation.md).
struct Metrics {
  double gpu_alloc_pct_at_100 = 0;
  double gpu_alloc_pct_at_130 = 0;
  double unalloc_gpu_pct_at_100 = 0;  // arrived demand that failed, % of capacity, at 100% arrived
  double frag_ratio_pct_at_90 = 0;
  double frag_amount_pct_at_100 = 0;
};

struct SeedRun {
  uint64_t seed = 0;
  ReplayResult replay;
  Metrics metrics;
};

struct PolicyRuns {
  Policy policy = Policy::kFgd;
  std::vector<SeedRun> runs;  // in the order of StudyInput::seeds
  Metrics mean;
};

Metrics metrics_of(const ReplayResult& r);
std::vector<PolicyRuns> run_study(const StudyInput& in);

}  // namespace boreas::frag
