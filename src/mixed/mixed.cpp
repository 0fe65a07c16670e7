#include "mixed/mixed.h"

#include <fmt/format.h>

#include <algorithm>

#include "sim/metrics.h"

namespace boreas::mixed {

namespace {

Status check_tenancy(const sim::RunRequest& request, const ServiceSide& side) {
  const auto& tree = request.policy_options.tenancy.queues;
  if (!tree) {
    return Status::ok();  // no queue tree: no guarantees, the replicas queue like any job
  }
  if (!tree->find(side.queue)) {
    return invalid_argument(fmt::format("--service-queue: queue '{}' is not in the --queues tree; add it (with a "
                                        "guarantee of the service's GPUs) or name another with --service-queue",
                                        side.queue));
  }
  const auto& classes = tree->priority_classes;
  const auto it = std::find_if(classes.begin(), classes.end(),
                               [&](const PriorityClass& c) { return c.name == side.priority_class; });
  if (it == classes.end() || it->preemptible) {
    return invalid_argument(fmt::format("--queues: the replicas' priority class '{}' must be declared with "
                                        "preemptible: false (a replica is never preempted)",
                                        side.priority_class));
  }
  return Status::ok();
}

Time first_submit(std::span<const JobSpec> jobs) {
  Time t = Time::never();
  for (const JobSpec& j : jobs) {
    t = std::min(t, j.submit);
  }
  return t;
}

// One job per replica the serving run asked for: from the ask, as long as it held its GPUs.
void add_replica_jobs(MixedRun& m, const ServiceSide& side, Time origin) {
  m.jobs.resize(m.training_jobs);
  const Symbol queue = m.symbols.intern(side.queue);
  const Symbol cls = m.symbols.intern(side.priority_class);
  const Symbol gpu = m.symbols.intern(side.service->gpu);
  for (size_t k = 0; k < m.serving.replicas.size(); ++k) {
    const serving::ReplicaLife& r = m.serving.replicas[k];
    JobSpec j;
    j.id = JobId(static_cast<uint32_t>(m.jobs.size()));
    j.name = m.symbols.intern(fmt::format("{}-replica-{}", side.service->name, k));
    j.queue = queue;
    j.priority_class = cls;
    j.gpu_types = gpu;
    j.kind = JobKind::kInference;
    j.preemptible = false;
    j.gpus = static_cast<uint32_t>(side.service->tp);
    j.submit = origin + Duration::micros(r.asked_us);
    j.duration = Duration::micros(std::max<int64_t>(1, r.stop_us - r.start_us));
    m.jobs.push_back(j);
  }
}

// Each replica job's wait from its submission to its first start in the engine.
Result<std::vector<int64_t>> replica_waits(const MixedRun& m, const sim::SimResult& result) {
  std::vector<int64_t> waits(m.jobs.size() - m.training_jobs, -1);
  for (const sim::RunRecord& run : result.runs) {
    const size_t id = run.job.value();
    if (id >= m.training_jobs && run.run == 0) {
      waits[id - m.training_jobs] = (run.start - m.jobs[id].submit).us();
    }
  }
  for (size_t k = 0; k < waits.size(); ++k) {
    if (waits[k] < 0) {
      return invalid_argument(fmt::format("replica {} of the service never started in the engine (its {} GPUs never "
                                          "came free); give the service's queue a guarantee of its GPUs",
                                          k, m.jobs[m.training_jobs + k].gpus));
    }
  }
  return waits;
}

// One round: the serving twin with the current waits, then the engine with its replica jobs.
Result<std::vector<int64_t>> run_round(const policy::PolicyRegistry& registry, const sim::RunRequest& request,
                                       const ServiceSide& side, Time origin, MixedRun& m) {
  serving::SimOptions options = side.options;
  options.replica_wait_us = m.replica_wait_us;
  auto serving = serving::simulate(*side.trace, *side.service, side.placement, options);
  if (!serving.is_ok()) {
    return serving.status();
  }
  m.serving = std::move(*serving);
  add_replica_jobs(m, side, origin);
  sim::RunRequest req = request;
  req.jobs = m.jobs;
  req.symbols = &m.symbols;
  auto engine = sim::run_policy(registry, req);
  if (!engine.is_ok()) {
    return engine.status();
  }
  m.engine = std::move(*engine);
  return replica_waits(m, m.engine.result);
}

// The engine's summary recomputed over the training jobs; run-wide figures (window, quota audit,
// per-queue guarantees) kept from the engine's own.
void training_summary(MixedRun& m, uint32_t cluster_gpus) {
  sim::Summary all = std::move(m.engine.summary);
  const std::span<const JobSpec> training(m.jobs.data(), m.training_jobs);
  sim::Summary s = sim::summarize(m.engine.result, training, m.symbols, cluster_gpus);
  s.has_queue_tree = all.has_queue_tree;
  s.quota_violation_gpu_seconds = all.quota_violation_gpu_seconds;
  for (auto& [name, q] : s.queues) {
    if (const auto it = all.queues.find(name); it != all.queues.end()) {
      q.guaranteed_gpus = it->second.guaranteed_gpus;
      q.guarantee_share = it->second.guarantee_share;
    }
  }
  m.engine.summary = std::move(s);
}

}  // namespace

Result<MixedRun> run_mixed(const policy::PolicyRegistry& registry, const sim::RunRequest& request,
                           const ServiceSide& side) {
  BOREAS_RETURN_IF_ERROR(check_tenancy(request, side));
  if (request.jobs.empty()) {
    return invalid_argument("the training trace has no jobs; the mixed cluster needs both sides");
  }
  MixedRun m;
  m.symbols = *request.symbols;
  m.jobs.assign(request.jobs.begin(), request.jobs.end());
  m.training_jobs = m.jobs.size();
  const Time origin = first_submit(request.jobs) + side.start;
  while (m.rounds < kMaxRounds && !m.converged) {
    ++m.rounds;
    auto waits = run_round(registry, request, side, origin, m);
    if (!waits.is_ok()) {
      return waits.status().with_context(fmt::format("mixed cluster, round {}: ", m.rounds));
    }
    m.converged = *waits == m.replica_wait_us;
    m.replica_wait_us = std::move(*waits);
  }
  training_summary(m, request.cluster->gpu_count());
  return m;
}

Held held_by(const sim::SimResult& result, size_t from, size_t to, Time lo, Time hi) {
  Held h;
  for (const sim::RunRecord& run : result.runs) {
    const size_t id = run.job.value();
    if (id < from || id >= to) {
      continue;
    }
    const Time end = run.end == Time::never() ? result.last_end : run.end;
    const double gpus = static_cast<double>(run.gpus.size());
    h.gpu_seconds += (end - run.start).to_seconds() * gpus;
    const Time a = std::max(run.start, lo);
    const Time b = std::min(end, hi);
    h.in_window_gpu_seconds += b > a ? (b - a).to_seconds() * gpus : 0;
  }
  return h;
}

}  // namespace boreas::mixed
