#include "sim/run.h"

#include <chrono>

namespace boreas::sim {

Result<RunOutput> run_policy(const policy::PolicyRegistry& registry, const RunRequest& request) {
  const auto started = std::chrono::steady_clock::now();
  auto scheduler = registry.make(request.policy, request.policy_options);
  if (!scheduler.is_ok()) {
    return scheduler.status();
  }
  Engine engine(*request.cluster, request.jobs, *request.symbols, **scheduler, request.engine_options);
  if (request.observer) {
    engine.set_observer(request.observer);
  }
  if (request.progress) {
    engine.set_progress(request.progress);
  }
  auto result = engine.run();
  if (!result.is_ok()) {
    return result.status().with_context("policy " + request.policy + ": ");
  }
  RunOutput out;
  out.policy = request.policy;
  out.placement = std::string((*scheduler)->placement_name());
  out.summary = summarize(*result, request.jobs, *request.symbols, request.cluster->gpu_count());
  out.result = std::move(*result);
  out.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace boreas::sim
