#pragma once
// Summary statistics of a trace, for `boreas trace stats` and for checking synthetic presets.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "trace/trace.h"

namespace boreas::trace {

struct QueueStats {
  uint64_t jobs = 0;
  double gpu_hours = 0;
};

struct TraceStats {
  uint64_t jobs = 0;
  uint64_t cpu_only_jobs = 0;
  uint64_t open_ended_jobs = 0;  // infinite duration; left out of duration and GPU-hour figures
  Duration span;                 // last submit − first submit
  std::map<uint32_t, uint64_t> gpu_histogram;
  // Duration in seconds: min, p25, p50, p75, p90, p99, max (linear interpolation, numpy's default).
  std::map<std::string, double> duration_s;
  double mean_duration_s = 0;
  double gpu_hours = 0;  // Σ duration × gpus × gpu_milli / 1000
  std::map<std::string, QueueStats> queues;
};

TraceStats compute_stats(const Trace& trace);
// GPU-time offered per GPU-time available over the submit span: Σ(duration × GPUs) / (gpus × span).
std::optional<double> offered_load(const TraceStats& stats, uint32_t cluster_gpus);
// Linear-interpolation percentile of sorted values, q in [0, 1].
double percentile(const std::vector<double>& sorted, double q);

std::string stats_text(const TraceStats& stats, std::optional<uint32_t> cluster_gpus);
std::string stats_json(const TraceStats& stats, std::optional<uint32_t> cluster_gpus);

}  // namespace boreas::trace
