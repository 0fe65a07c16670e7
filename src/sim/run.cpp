#include "sim/run.h"

#include <chrono>
#include <optional>

#include "policy/quota_audit.h"

namespace boreas::sim {

Result<RunOutput> run_policy(const policy::PolicyRegistry& registry, const RunRequest& request) {
  const auto started = std::chrono::steady_clock::now();
  auto scheduler = registry.make(request.policy, request.policy_options);
  if (!scheduler.is_ok()) {
    return scheduler.status();
  }
  // With a queue tree, audit guarantees after every change (quota_violation_gpu_seconds); the
  // guarantees are also the queues' fair-share weights.
  const auto& tree = request.policy_options.tenancy.queues;
  std::optional<policy::QuotaAudit> audit;
  EngineOptions engine_options = request.engine_options;
  if (tree) {
    audit.emplace(*tree, *request.cluster);
    engine_options.meter.quota_holds = true;
    for (const QueueSpec& q : tree->queues) {
      engine_options.meter.queue_weights[q.name] = static_cast<double>(audit->guaranteed(q.name));
    }
  }
  Engine engine(*request.cluster, request.jobs, *request.symbols, **scheduler, engine_options);
  if (request.observer || audit) {
    engine.set_observer([&](const state::ClusterState& s, Time t) {
      if (audit) {
        audit->observe(s, t);
      }
      if (request.observer) {
        request.observer(s, t);
      }
    });
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
  add_job_class_metrics(out.summary, *result, request.jobs, *request.symbols, *request.cluster);
  add_multi_node_metrics(out.summary, *result, request.jobs, *request.cluster);
  if (audit) {
    out.summary.quota_violation_gpu_seconds = audit->violation_gpu_seconds();
    std::map<std::string, uint64_t> guaranteed;
    for (const QueueSpec& q : tree->queues) {
      guaranteed[q.name] = audit->guaranteed(q.name);
    }
    add_guarantees(out.summary, guaranteed, request.cluster->gpu_count());
  }
  out.result = std::move(*result);
  out.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace boreas::sim
