#pragma once
// Summary statistics of one simulated run, computed the way the peers do (peer-cases README):
// JCT = end − submit over completed jobs; percentiles by linear interpolation between order
// statistics (numpy's default); makespan = last completion − first submission; utilization =
// Σ(duration × GPUs) / (cluster GPUs × makespan).

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/job.h"
#include "core/symbol.h"
#include "sim/engine.h"

namespace boreas::sim {

struct QueueSummary {
  uint64_t jobs = 0;
  double avg_jct_s = 0;
  double avg_queue_s = 0;
};

struct Summary {
  uint64_t jobs = 0;       // simulated
  uint64_t completed = 0;  // JCT statistics are over these
  double avg_jct_s = 0;
  double p50_jct_s = 0;
  double p95_jct_s = 0;
  double p99_jct_s = 0;
  double avg_queue_s = 0;
  double makespan_s = 0;
  double utilization = 0;
  uint64_t preemptions = 0;
  std::map<std::string, QueueSummary> queues;  // by queue name; jobs without one under "default"
};

// p in [0, 100] of ascending `sorted`; 0 when empty.
double percentile(std::span<const double> sorted, double p);

Summary summarize(const SimResult& result, std::span<const JobSpec> jobs, const SymbolTable& symbols,
                  uint32_t cluster_gpus);

}  // namespace boreas::sim
