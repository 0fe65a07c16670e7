#pragma once
// Checkpoint and restore cost from model size and storage bandwidth (FACTS §4.2), the Young and
// Daly intervals (FACTS §4.3), expected waste, and an interval sweep (analytical and Monte Carlo).

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "models/param_table.h"
#include "models/random.h"

namespace boreas::models {

struct CheckpointParams {
  // fp32 master weights + Adam m + v + bf16 weights = 4 + 4 + 4 + 2 bytes (D7; FACTS §4.2 12–16).
  double bytes_per_param = param("checkpoint.bytes_per_param");
  // Aggregate storage bandwidth a job gets: BLOOM wrote 2.3 TB in 40 s ≈ 57 GB/s (R12).
  double write_gbps = param("checkpoint.write_gbps");
  double read_gbps = param("checkpoint.read_gbps");
  // Requeue, container start, CUDA init and warm-up before reading the checkpoint: a cached-image
  // cold start of a 70B model takes 40–90 s (FACTS §6.3, I4) → 60 s.
  double restart_overhead_s = param("checkpoint.restart_overhead_s");
};

struct CheckpointCost {
  double write_s = 0;    // δ: time the job stops to write a checkpoint
  double restore_s = 0;  // R: restart overhead + reading the checkpoint back
};
Status validate(const CheckpointParams& p);
CheckpointCost checkpoint_cost(double model_params, const CheckpointParams& p);

// Young (1974): √(2·δ·M).
double young_interval_s(double write_s, double mtbf_s);
// Daly (2004), first order: √(2·δ·M) − δ (for δ ≪ M; never below δ).
double daly_interval_s(double write_s, double mtbf_s);
// FACTS §4.3 first-order waste: δ/τ + τ/(2M) + R/M.
double waste_fraction(double interval_s, double write_s, double restore_s, double mtbf_s);

// Exact expected wall time per unit of work with exponential failures and no failures during
// restart: each segment of τ + δ takes (e^{(τ+δ)/M} − 1)·(M + R) on average.
double expected_time_per_work(double interval_s, double write_s, double restore_s, double mtbf_s);

// Wall time to finish `work_s` of computation, failures drawn from `rng`.
double simulate_runtime_s(double work_s, double interval_s, double write_s, double restore_s, double mtbf_s,
                          Rng& rng);

struct SweepPoint {
  double interval_s = 0;
  double expected_waste = 0;   // (wall − work) / work, analytical
  double simulated_waste = 0;  // the same from a Monte Carlo run
};
// One point per interval; every point reuses `seed` (common random numbers), so differences
// between points are not noise between generators.
std::vector<SweepPoint> sweep_intervals(const std::vector<double>& intervals_s, double work_s, double write_s,
                                        double restore_s, double mtbf_s, uint64_t seed);

}  // namespace boreas::models
