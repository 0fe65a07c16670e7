#pragma once
// Summary statistics of one simulated run, computed the way the peers do (peer-cases README):
// JCT = end − submit over completed jobs; percentiles by linear interpolation between order
// statistics (numpy's default); makespan = last completion − first submission; utilization =
// Σ(duration × GPUs) / (cluster GPUs × makespan).

#include <cstdint>
#include <map>
#include <optional>
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
  double gpu_share = 0;        // its share of all GPU-seconds used
  double guarantee_share = 0;  // its guaranteed GPUs over the cluster's (0 without a queue tree)
  uint64_t guaranteed_gpus = 0;
  double cost_usd = 0;         // with physics: GPU-hours × price + its GPUs' facility energy
  double energy_kwh = 0;       // with power physics: its GPUs' facility energy (GPU power × PUE)
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
  // Multi-tenancy (docs/multitenancy.md).
  bool has_queue_tree = false;             // the run had --queues (add_guarantees sets it)
  double quota_violation_gpu_seconds = 0;  // needs a queue tree; 0 otherwise
  double preemptions_per_job_p99 = 0;
  std::map<std::string, double> class_avg_jct_s;  // by priority class ("default" = none)
  double jain_fairness = 0;                       // over queues of gpu_share / guarantee_share (or gpu_share)
  // Physics (docs/models.md, "Engine integration"): set when any model was on.
  std::optional<PhysicsTotals> physics;
  double avg_pue = 0;
  double effective_utilization = 0;  // completed jobs' reference work / (GPUs × makespan)
  double allocated_utilization = 0;  // GPU time held by runs / (GPUs × makespan)
};

// Copies the physics totals and per-queue cost into the summary (summarize calls it).
void add_physics_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                         const SymbolTable& symbols, uint32_t cluster_gpus);

// Adds preemptions_per_job_p99, class_avg_jct_s and per-queue gpu_share (summarize calls it).
void add_tenancy_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                         const SymbolTable& symbols);
// Jain's index (Σx)² / (n·Σx²) of `x`; 0 when empty or all zero.
double jain_index(std::span<const double> x);
// Fills guarantee_share per queue and jain_fairness from per-queue guarantees (GPUs).
void add_guarantees(Summary& s, const std::map<std::string, uint64_t>& guaranteed, uint32_t cluster_gpus);

// p in [0, 100] of ascending `sorted`; 0 when empty.
double percentile(std::span<const double> sorted, double p);

Summary summarize(const SimResult& result, std::span<const JobSpec> jobs, const SymbolTable& symbols,
                  uint32_t cluster_gpus);

}  // namespace boreas::sim
