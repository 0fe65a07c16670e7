#include "support/sim_run.h"

namespace boreas::testing {

Result<sim::RunOutput> simulate(const SimCase& c, const std::string& policy, policy::PolicyOptions options,
                                sim::EngineOptions engine, sim::Observer observer) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  sim::RunRequest req;
  req.cluster = c.cluster;
  req.jobs = c.jobs;
  req.symbols = c.symbols;
  req.policy = policy;
  req.policy_options = std::move(options);
  req.engine_options = engine;
  req.observer = std::move(observer);
  return sim::run_policy(registry, req);
}

}  // namespace boreas::testing
