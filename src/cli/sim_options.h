#pragma once
// The options of one `boreas sim` run, declared once: `boreas sim` parses them from its command
// line and `boreas experiment run` from each arm of an experiment file, through the same CLI11
// declaration (add_sim_options), so a flag means the same thing in both places.

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "cli/sim_placement.h"
#include "cli/sim_tenancy.h"
#include "core/status.h"
#include "policy/registry.h"
#include "sim/meter.h"
#include "sim/output.h"
#include "sim/physics.h"
#include "sim/reference.h"
#include "sim/run.h"
#include "trace/trace.h"

namespace boreas::cli {

struct SimArgs {
  std::string cluster, trace, format = "auto", map, policies = "fifo", out;
  std::string report, schedule_trace;  // optional views built from the --out files
  std::string physics = "none";        // models the engine applies (docs/models.md)
  sim::PhysicsSwitches physics_on;
  std::string window;                   // --window START:END (docs/formats/sim-output.md)
  sim::MeterOptions meter;              // the measurement window, after --window
  std::string params;                  // --param NAME=VALUE,... (models/param_table.h)
  sim::PhysicsOptions physics_options;  // the models' parameters after --param
  uint64_t seed = 0;
  double sample_interval_s = 300, preemption_overhead_s = 0, time_limit_factor = 1.0, starvation = 0;
  uint32_t max_preemptions = 0;
  std::vector<double> las_thresholds{3250, 7200};
  double load = 0;            // --load: rescale arrivals to this offered load (0: as recorded)
  uint64_t slice = 0;         // --slice: N consecutive jobs from a seeded start (0: all)
  std::string reference_gpu;  // --reference-gpu: the type the trace's durations are on
  std::string gpu_type_map;   // --gpu-type-map FROM=TO,...
  bool drop_unfit = false;    // leave out jobs that can never run instead of refusing the trace
  std::string job_classes;    // --job-classes CLASS=SHARE,... (cli/job_mix.h)
  std::string checkpoint_interval = "model";  // --checkpoint-interval model|none|SECONDS
  TenancyArgs tenancy;
  PlacementArgs placement_args;
  // The mixed cluster (cli/sim_mixed.h): a service beside the training trace.
  std::string service, service_trace, service_queue = "serving", service_class = "production";
  double service_start_s = 0;
};

// Declares every option of a run on `cmd` (the ones `boreas experiment` arms may set too).
void add_sim_options(CLI::App* cmd, SimArgs& args);

// What a run replays, after --slice, --load, the reference GPU and tenancy were applied.
struct SimInputs {
  Cluster cluster;
  trace::Trace trace;
  sim::ReferenceGpu reference;
  uint64_t dropped_jobs = 0;      // --drop-unfit
  double reference_capacity = 0;  // the cluster's GPUs counted in reference GPUs
  double offered_load = 0;        // of the replayed trace on the cluster (docs/formats/sim-output.md)
};

// Reads the cluster and the trace files.
Result<SimInputs> read_sim_inputs(const SimArgs& args);
// Checks the options and shapes read inputs for this run: GPU type map, jobs that can never run,
// slice, reference GPU, load, tenancy.
Status prepare_sim_inputs(SimArgs& args, const policy::PolicyRegistry& registry, SimInputs& inputs);

std::vector<std::string> split_policies(const std::string& list);

// Runs one policy of `args` on prepared inputs.
Result<sim::RunOutput> run_one_policy(const SimArgs& args, const policy::PolicyRegistry& registry,
                                      const SimInputs& inputs, const std::string& policy,
                                      std::function<void(double)> progress = {});

// The engine request of one policy of `args` on prepared inputs (what run_one_policy runs).
Result<sim::RunRequest> make_run_request(const SimArgs& args, const policy::PolicyRegistry& registry,
                                         const SimInputs& inputs, const std::string& policy);

sim::OutputInfo output_info(const SimArgs& args, const SimInputs& inputs);

}  // namespace boreas::cli
