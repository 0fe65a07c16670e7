#pragma once
// One simulation with the baseline registry, for tests.

#include <string>

#include "sim/run.h"

namespace boreas::testing {

struct SimCase {
  const Cluster* cluster = nullptr;
  std::span<const JobSpec> jobs;
  const SymbolTable* symbols = nullptr;
};

Result<sim::RunOutput> simulate(const SimCase& c, const std::string& policy,
                                policy::PolicyOptions options = {}, sim::EngineOptions engine = {},
                                sim::Observer observer = {});

}  // namespace boreas::testing
