#pragma once
// The multi-tenancy options of `boreas sim` (docs/multitenancy.md): --queues, --production-fraction,
// --min-runtime, --fair-share-half-life and --explain JOB; `boreas serve` shares all but --production-fraction
// and --explain.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/status.h"
#include "policy/tenancy.h"
#include "sim/run.h"
#include "trace/trace.h"

namespace boreas::cli {

struct TenancyArgs {
  std::string queues;
  double production_fraction = 0;
  double min_runtime_s = 600;
  double half_life_s = 7 * 24 * 3600;
  double idle_wait_bound_s = 3600;
  std::string explain;  // a job id (row of jobs.csv) or the source's job name
  policy::TenancyOptions loaded;  // filled by prepare_tenancy
};

void add_tenancy_options(CLI::App* cmd, TenancyArgs& args);
// --queues, --min-runtime and --fair-share-half-life only.
void add_queue_options(CLI::App* cmd, TenancyArgs& args);
// Checks the flags and loads --queues against the cluster (warnings to stderr).
Result<policy::TenancyOptions> load_tenancy(const TenancyArgs& args, const Cluster& cluster);
// load_tenancy, then against the cluster and marks a seeded share of jobs `production`: job i is
// marked when splitmix64(seed ^ i) / 2^64 < F, so the set does not depend on thread or order.
Status prepare_tenancy(TenancyArgs& args, const Cluster& cluster, trace::Trace& trace, uint64_t seed);
// `--explain JOB`: per policy, the job's runs and why it waited.
Status print_explain(const TenancyArgs& args, const std::vector<sim::RunOutput>& runs, const trace::Trace& trace);

}  // namespace boreas::cli
