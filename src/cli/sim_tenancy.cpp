#include "cli/sim_tenancy.h"

#include <fmt/format.h>
#include <iostream>

#include "config/cluster_spec.h"
#include "sim/output.h"

namespace boreas::cli {

void add_queue_options(CLI::App* cmd, TenancyArgs& a) {
  cmd->add_option("--queues", a.queues, "queue spec YAML (quotas, priority classes) for the boreas policy");
  cmd->add_option("--min-runtime", a.min_runtime_s, "boreas: seconds before a priority preemption (600)");
  cmd->add_option("--fair-share-half-life", a.half_life_s, "boreas: usage half-life in seconds (0 = none)");
  cmd->add_option("--idle-wait-bound", a.idle_wait_bound_s,
                  "boreas: seconds a job at its preemption cap may wait beside idle GPUs it fits before it "
                  "borrows reclaimable capacity anyway (3600; docs/multitenancy.md)");
}

void add_tenancy_options(CLI::App* cmd, TenancyArgs& a) {
  add_queue_options(cmd, a);
  cmd->add_option("--production-fraction", a.production_fraction,
                  "mark this seeded share of jobs priority class 'production' (0..1)");
  cmd->add_option("--explain", a.explain, "print why JOB (id or name) waited, per policy");
}

namespace {
uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

Result<policy::TenancyOptions> load_tenancy(const TenancyArgs& a, const Cluster& cluster) {
  if (a.min_runtime_s < 0 || a.half_life_s < 0 || a.idle_wait_bound_s < 0) {
    return invalid_argument("--min-runtime, --fair-share-half-life and --idle-wait-bound must be >= 0");
  }
  policy::TenancyOptions loaded;
  if (!a.queues.empty()) {
    std::vector<config::Warning> warnings;
    auto tree = config::load_queues_file(a.queues, cluster, &warnings);
    if (!tree.is_ok()) {
      return tree.status().with_context("--queues: ");
    }
    for (const auto& w : warnings) {
      std::cerr << "warning: " << w.message << '\n';
    }
    loaded.queues = std::make_shared<QueueTree>(std::move(*tree));
  }
  loaded.preemption.min_runtime = Duration::from_seconds(a.min_runtime_s);
  loaded.preemption.idle_wait_bound = Duration::from_seconds(a.idle_wait_bound_s);
  loaded.fair_share.half_life = Duration::from_seconds(a.half_life_s);
  return loaded;
}

Status prepare_tenancy(TenancyArgs& a, const Cluster& cluster, trace::Trace& tr, uint64_t seed) {
  if (a.production_fraction < 0 || a.production_fraction > 1) {
    return invalid_argument("--production-fraction must be in [0, 1]");
  }
  auto loaded = load_tenancy(a, cluster);
  if (!loaded.is_ok()) {
    return loaded.status();
  }
  a.loaded = std::move(*loaded);
  if (a.production_fraction > 0) {
    const Symbol production = tr.symbols.intern("production");
    const auto threshold = static_cast<double>(UINT64_MAX) * a.production_fraction;
    for (JobSpec& j : tr.jobs) {
      if (static_cast<double>(splitmix64(seed ^ j.id.value())) < threshold) {
        j.priority_class = production;
      }
    }
  }
  return Status::ok();
}

namespace {
std::optional<JobId> find_job(const std::string& key, const trace::Trace& tr) {
  for (const JobSpec& j : tr.jobs) {
    if (std::to_string(j.id.value()) == key || tr.symbols.view(j.name) == key) {
      return j.id;
    }
  }
  return std::nullopt;
}
}  // namespace

Status print_explain(const TenancyArgs& a, const std::vector<sim::RunOutput>& runs, const trace::Trace& tr) {
  const auto job = find_job(a.explain, tr);
  if (!job) {
    return not_found("--explain: no job with id or name '" + a.explain + "' in the trace");
  }
  const JobSpec& spec = tr.jobs[job->value()];
  std::cout << fmt::format("job {} ({}): queue {}, class {}, {} GPUs, submitted {} s\n", job->value(),
                           tr.symbols.view(spec.name), tr.symbols.view(spec.queue),
                           spec.priority_class.empty() ? "default" : tr.symbols.view(spec.priority_class), spec.gpus,
                           sim::format_seconds(spec.submit, runs.empty() ? spec.submit : runs[0].result.first_submit));
  for (const auto& r : runs) {
    const auto& rec = r.result.jobs[job->value()];
    const Time origin = r.result.first_submit;
    std::cout << fmt::format("  {}: {}, waited {} s, {} preemptions\n", r.policy, to_string(rec.state),
                             rec.pending_total.to_seconds(), rec.preemptions);
    for (const auto& run : r.result.runs) {
      if (run.job == *job) {
        std::cout << fmt::format("    run {}: {} .. {} s on {} GPUs\n", run.run, sim::format_seconds(run.start, origin),
                                 run.end.is_never() ? "" : sim::format_seconds(run.end, origin), run.gpus.size());
      }
    }
    const bool has = job->value() < r.result.pending_reasons.size() && !r.result.pending_reasons[job->value()].empty();
    std::cout << "    last pending reason: " << (has ? r.result.pending_reasons[job->value()] : "(none recorded)")
              << '\n';
  }
  return Status::ok();
}

}  // namespace boreas::cli
