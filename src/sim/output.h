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
  uint64_t dropped_jobs = 0;  // jobs left out before the run because they could never run (--drop-unfit)
};

// Seconds since `origin` as a decimal: "12" or "12.000250" (whole microseconds, no float noise).
std::string format_seconds(Time t, Time origin);

Status write_run(const std::string& policy_dir, const RunOutput& run, const OutputInfo& info,
                 const Cluster& cluster, std::span<const JobSpec> jobs, const SymbolTable& symbols);

}  // namespace boreas::sim
