#pragma once
// One simulation from policy name to summary: what the CLI, the tests and the benchmarks share.

#include <span>
#include <string>

#include "policy/registry.h"
#include "sim/engine.h"
#include "sim/metrics.h"

namespace boreas::sim {

struct RunOutput {
  std::string policy;
  std::string placement;
  SimResult result;
  Summary summary;
  double wall_time_s = 0;
};

struct RunRequest {
  const Cluster* cluster = nullptr;
  std::span<const JobSpec> jobs;
  const SymbolTable* symbols = nullptr;
  std::string policy;
  policy::PolicyOptions policy_options;
  EngineOptions engine_options;
  Observer observer;                     // optional
  std::function<void(double)> progress;  // optional
};

Result<RunOutput> run_policy(const policy::PolicyRegistry& registry, const RunRequest& request);

}  // namespace boreas::sim
