#pragma once
// The mixed cluster (docs/serving.md, "Mixed cluster"): a training trace and one autoscaled service
// on the same GPUs. The service's replicas are jobs of a non-preemptible class in their own queue,
// submitted to the training engine when the autoscaler asks for them and lasting until it lets them
// go; the serving twin gets each replica only from the instant the engine started it, plus its cold
// start. The two simulators run in turn until they agree (a fixed point): the serving twin, given
// each replica's wait for GPUs, says when replicas are asked for and stopped; the engine, given
// those replica jobs, says how long each waited.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job.h"
#include "core/status.h"
#include "core/symbol.h"
#include "policy/registry.h"
#include "serving/request_trace.h"
#include "serving/service_spec.h"
#include "serving/simulator.h"
#include "sim/run.h"

namespace boreas::mixed {

struct ServiceSide {
  const serving::RequestTrace* trace = nullptr;
  const serving::ServiceSpec* service = nullptr;
  serving::Placement placement;
  serving::SimOptions options;
  std::string queue = "serving";            // queue of the replica jobs
  std::string priority_class = "production";  // their class (they are never preemptible)
  Duration start;  // the request trace's time 0, after the training trace's first submission
};

inline constexpr int32_t kMaxRounds = 8;

struct MixedRun {
  sim::RunOutput engine;         // the last round's engine run; summary over the training jobs only
  SymbolTable symbols;           // the training trace's, plus the replica jobs' names
  std::vector<JobSpec> jobs;     // training jobs, then one per replica (id = training jobs + k)
  size_t training_jobs = 0;
  serving::ServingRun serving;   // the last round's serving run
  std::vector<int64_t> replica_wait_us;  // per replica: engine start − ask (the wait for GPUs)
  int32_t rounds = 0;
  bool converged = false;        // the last two rounds gave the same waits
};

// Runs both sides to their fixed point (at most kMaxRounds rounds). `request` carries the cluster,
// the policy, its options and the training jobs (ids 0..n-1); the request trace's time 0 is
// `side.start` after the first training submission. Errors: the service's queue or class missing
// from the queue tree, a replica the engine never starts.
Result<MixedRun> run_mixed(const policy::PolicyRegistry& registry, const sim::RunRequest& request,
                           const ServiceSide& side);

// GPU-seconds held by the runs of jobs [from, to) of `run`, and the part of it inside [lo, hi).
struct Held {
  double gpu_seconds = 0;
  double in_window_gpu_seconds = 0;
};
Held held_by(const sim::SimResult& result, size_t from, size_t to, Time lo, Time hi);

// Adds the service side and the coupling to the training side's summary.json (`j`, from
// sim::summary_text of `m.engine`): "service" (the serving twin's keys plus replica waits),
// training_gpu_hours, service_gpu_hours_engine, training_window_utilization, coupling_rounds,
// coupling_converged (docs/serving.md, "Mixed cluster").
void add_mixed_keys(nlohmann::json& j, const MixedRun& m, const ServiceSide& side, uint32_t cluster_gpus);

}  // namespace boreas::mixed
