#pragma once
// Summary statistics of one simulated run. The peers' statistics are computed the way the peers
// do (peer-cases README): JCT = end − submit over completed jobs; percentiles by linear
// interpolation between order statistics (numpy's default); makespan = last completion − first
// submission; makespan utilization = Σ(duration × GPUs) / (cluster GPUs × makespan). The metrics
// that judge a policy (window utilization, idle GPUs while jobs wait, slowdown, fairness
// shortfall) are defined in docs/formats/sim-output.md; the time integrals come from sim/meter.h.

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

// Completed jobs of one group (queue, priority class): JCT and slowdown = JCT / duration.
struct JctStats {
  uint64_t jobs = 0;
  double avg_jct_s = 0;
  double slowdown_p50 = 0;
  double slowdown_p95 = 0;
  double slowdown_p99 = 0;
};

struct QueueSummary {
  uint64_t jobs = 0;
  double avg_jct_s = 0;
  double slowdown_p50 = 0;
  double slowdown_p95 = 0;
  double slowdown_p99 = 0;
  double avg_queue_s = 0;
  double gpu_share = 0;        // its share of all GPU-seconds used
  double guarantee_share = 0;  // its guaranteed GPUs over the cluster's (0 without a queue tree)
  uint64_t guaranteed_gpus = 0;
  double cost_usd = 0;         // with physics: GPU-hours × price + its GPUs' facility energy
  double energy_kwh = 0;       // with power physics: its GPUs' facility energy (GPU power × PUE)
  double entitled_gpu_hours = 0;             // ∫ its fair share, capped by its demand
  double fairness_shortfall_gpu_hours = 0;   // ∫ max(0, entitled − held)
};

// Completed jobs of one model class (JobSpec::job_class) and where its runs held GPUs.
struct JobClassSummary {
  uint64_t jobs = 0;  // completed
  double avg_jct_s = 0;
  double gpu_hours = 0;                        // held by its runs, completed or not
  std::map<std::string, double> gpu_share;     // GPU type -> share of gpu_hours
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
  double utilization = 0;  // the makespan ratio (summary.json: makespan_utilization)
  uint64_t preemptions = 0;
  double slowdown_p50 = 0;  // JCT / duration (reference GPU), completed jobs with a duration
  double slowdown_p95 = 0;
  double slowdown_p99 = 0;
  double max_queue_s = 0;  // longest total wait of any job, to the end of the run if still waiting
  double completed_ref_gpu_hours = 0;  // Σ completed jobs' duration × GPUs
  // The measurement window (seconds since the first submission) and what it measures.
  double window_start_s = 0;
  double window_end_s = 0;
  double window_utilization = 0;  // allocated GPU-seconds / (cluster GPUs × window)
  double work_utilization = 0;    // reference-GPU-seconds of progress / (cluster GPUs × window)
  double idle_gpu_hours_while_waiting = 0;
  double fairness_shortfall_gpu_hours = 0;  // Σ queues ∫ max(0, entitled − held)
  double fairness_shortfall_share = 0;      // of the entitled GPU-hours
  std::map<std::string, QueueSummary> queues;  // by queue name; jobs without one under "default"
  // Multi-tenancy (docs/multitenancy.md).
  bool has_queue_tree = false;             // the run had --queues (add_guarantees sets it)
  double quota_violation_gpu_seconds = 0;  // needs a queue tree; 0 otherwise
  double preemptions_per_job_p99 = 0;
  std::map<std::string, JctStats> classes;  // by priority class ("default" = none)
  // Physics (docs/models.md, "Engine integration"): set when any model was on.
  std::optional<PhysicsTotals> physics;
  double avg_pue = 0;
  double effective_utilization = 0;  // completed jobs' reference work / (GPUs × makespan)
  double allocated_utilization = 0;  // GPU time held by runs / (GPUs × makespan)
  double energy_facility_kwh_window = 0;  // facility energy inside the window
  double energy_kwh_per_ref_gpu_hour = 0;  // facility energy / completed_ref_gpu_hours
  double cost_usd_per_ref_gpu_hour = 0;    // cost / completed_ref_gpu_hours
  // Recovery after failures and spot reclaims (SimResult::recovery_s): how many, mean and p95.
  uint64_t recoveries = 0;
  double recovery_time_mean_s = 0;
  double recovery_time_p95_s = 0;
  // Completed jobs asking more GPUs than the cluster's largest node holds (add_multi_node_metrics):
  // a property of the request, so every placement is judged on the same jobs.
  uint64_t multi_node_jobs = 0;
  double avg_jct_multi_node_s = 0;
  // By model class; empty unless some job names one (add_job_class_metrics).
  std::map<std::string, JobClassSummary> job_classes;
};

// Copies the physics totals and per-queue cost into the summary (summarize calls it).
void add_physics_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                         const SymbolTable& symbols, uint32_t cluster_gpus);

// Adds preemptions_per_job_p99, per-queue gpu_share and the fairness shortfall from the meter's
// integrals (summarize calls it).
void add_tenancy_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                         const SymbolTable& symbols);
// Fills guarantee_share per queue from per-queue guarantees (GPUs).
void add_guarantees(Summary& s, const std::map<std::string, uint64_t>& guaranteed, uint32_t cluster_gpus);

// Per model class: completed jobs, avg JCT and the share of its GPU-hours on each GPU type. Only
// when some job names a class, so that other runs keep their summary.json (run_policy calls it).
void add_job_class_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                           const SymbolTable& symbols, const Cluster& cluster);

// multi_node_jobs and avg_jct_multi_node_s (run_policy calls it).
void add_multi_node_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                            const Cluster& cluster);

// The name a queue or priority class is grouped under in the summary: its own, or "default" for none.
std::string group_name(Symbol sym, const SymbolTable& symbols);

// p in [0, 100] of ascending `sorted`; 0 when empty.
double percentile(std::span<const double> sorted, double p);
// percentile(sorted(values), ps[i]) into out[i] for every i, without sorting: only the order
// statistics the percentiles read are selected (nth_element among the values not yet placed), so
// `values` is left partly ordered. The same numbers, since an order statistic's value does not
// depend on how it was found (values without NaN; +0 and −0 would count as equal).
void select_percentiles(std::span<double> values, std::span<const double> ps, std::span<double> out);

Summary summarize(const SimResult& result, std::span<const JobSpec> jobs, const SymbolTable& symbols,
                  uint32_t cluster_gpus);

}  // namespace boreas::sim
