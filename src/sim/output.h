#pragma once
// Writes one run as docs/formats/sim-output.md describes: summary.json, jobs.csv, timeseries.csv,
// runs.csv in DIR/<policy>/. Deterministic except summary.json's wall_time_s.

#include <string>

#include "sim/run.h"

namespace boreas::sim {

struct OutputInfo {
  std::string cluster;
  std::string trace;
  uint64_t seed = 0;
  std::string reference_gpu;      // the type the trace's durations are on
  std::string reference_gpu_why;  // how it was chosen
  double offered_load = 0;        // the replayed trace's offered load on the cluster

  uint64_t dropped_jobs = 0;  // jobs left out before the run because they could never run (--drop-unfit)
};

// Seconds since `origin` as a decimal: "12" or "12.000250" (whole microseconds, no float noise).
std::string format_seconds(Time t, Time origin);

// summary.json's text (2-space indented JSON), as write_run writes it.
std::string summary_text(const RunOutput& run, const OutputInfo& info, const Cluster& cluster);

Status write_run(const std::string& policy_dir, const RunOutput& run, const OutputInfo& info,
                 const Cluster& cluster, std::span<const JobSpec> jobs, const SymbolTable& symbols);

}  // namespace boreas::sim
