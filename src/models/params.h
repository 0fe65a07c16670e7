#pragma once
// Every model parameter in one value (ModelParams), with the declared table's defaults
// (models/param_table.h), read and set by name for `boreas sim --param NAME=VALUE[,...]`.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "models/checkpoint.h"
#include "models/comm.h"
#include "models/cost.h"
#include "models/failure.h"
#include "models/param_table.h"
#include "models/power.h"
#include "models/spot.h"
#include "models/thermal.h"

namespace boreas::models {

// What the engine assumes of a job the trace says nothing about.
struct WorkloadParams {
  double training_activity = param("workload.training_activity");
  double inference_activity = param("workload.inference_activity");
  double comm_bytes = param("workload.comm_bytes");
  double step_compute_s = param("workload.step_compute_s");
  double comm_overlap = param("workload.comm_overlap");
  double checkpoint_write_s = param("workload.checkpoint_write_s");
};

struct ModelParams {
  CommParams comm;
  PowerParams power;
  ThermalParams thermal;
  FailureParams failure = llama3_failure_params(8);
  CheckpointParams checkpoint;
  SpotParams spot;
  CostParams cost;
  WorkloadParams workload;
};

// Every model's validate() on its part.
Status validate(const ModelParams& p);

// The declared table, in its order.
std::span<const ParamSpec> param_table();
std::vector<std::string> param_names();
const ParamSpec* find_param(std::string_view name);

// The current value of a parameter; empty for a name not in the table.
std::optional<double> get_param(const ModelParams& p, std::string_view name);
// Sets one parameter; not_found for a name not in the table (the caller adds a suggestion).
Status set_param(ModelParams& p, std::string_view name, double value);

struct ParamOverride {
  std::string name;
  double value = 0;
};
// "NAME=VALUE[,NAME=VALUE...]": syntax only (names are checked by apply_overrides).
Result<std::vector<ParamOverride>> parse_param_overrides(std::string_view list);
// Sets each override, then validates the whole; errors name the parameter.
Status apply_overrides(ModelParams& p, std::span<const ParamOverride> overrides);

// Restore after a failure, preemption or reclaim when a job gives no checkpoint cost: restart
// overhead + reading the default checkpoint back (written in checkpoint_write_s at write_gbps,
// read at read_gbps): 60 + 60 = 120 s with the defaults.
double default_restore_s(const ModelParams& p);

}  // namespace boreas::models
