#pragma once
// The placement options of `boreas sim` and `boreas serve` (docs/policies.md): --placement, topo's
// bounded wait, cool's long-job threshold, hetero's LP size and wait.

#include <CLI/CLI.hpp>

#include "core/status.h"
#include "policy/registry.h"

namespace boreas::cli {

struct PlacementArgs {
  std::string name = "count";
  double topo_max_wait_s = 86400;
  double topo_min_efficiency = 0.95;
  double cool_long_job_s = 3600;
  uint32_t hetero_max_jobs = 256;
  double hetero_max_wait_s = 0;
};

void add_placement_options(CLI::App* cmd, PlacementArgs& args);
// Copies the flags into the policy options and validates them, the placement's name against
// `registry` (the message names the flag).
Status apply_placement_options(const PlacementArgs& args, const policy::PolicyRegistry& registry,
                               policy::PolicyOptions& options);

}  // namespace boreas::cli
