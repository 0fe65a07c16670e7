// Multi-tenancy summary keys (docs/multitenancy.md, docs/formats/sim-output.md).
#include <algorithm>

#include "sim/metrics.h"
#include "sim/named_groups.h"

namespace boreas::sim {

namespace {

// The meter's per-queue integrals (sim/meter.h): entitled = weighted max-min fair share of the
// in-service GPUs, capped by the queue's demand; shortfall = the part of it the queue did not hold.
void add_fairness(Summary& s, const MeterTotals& m) {
  double shortfall = 0, entitled = 0;
  for (const auto& [name, gpu_s] : m.queue_entitled_gpu_s) {
    const auto it = m.queue_shortfall_gpu_s.find(name);
    const double short_s = it != m.queue_shortfall_gpu_s.end() ? it->second : 0.0;
    QueueSummary& q = s.queues[name];
    q.entitled_gpu_hours = gpu_s / 3600.0;
    q.fairness_shortfall_gpu_hours = short_s / 3600.0;
    shortfall += short_s;
    entitled += gpu_s;
  }
  s.fairness_shortfall_gpu_hours = shortfall / 3600.0;
  s.fairness_shortfall_share = entitled > 0 ? shortfall / entitled : 0;
}

}  // namespace

void add_tenancy_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                         const SymbolTable& symbols) {
  std::vector<double> preemptions;
  preemptions.reserve(jobs.size());
  std::map<std::string, double> gpu_s;
  NamedGroups<double> gpu_s_of;
  const auto name_of = [&](Symbol queue) { return group_name(queue, symbols); };  // as summarize names it
  double total_gpu_s = 0;
  for (const JobSpec& j : jobs) {
    const state::JobRecord& r = result.jobs[j.id.value()];
    preemptions.push_back(r.preemptions);
    const double used = r.run_time.to_seconds() * j.gpus;
    gpu_s_of.of(j.queue, gpu_s, name_of) += used;
    total_gpu_s += used;
  }
  const double p99 = 99;
  select_percentiles(preemptions, std::span(&p99, 1), std::span(&s.preemptions_per_job_p99, 1));
  for (const auto& [name, used] : gpu_s) {
    s.queues[name].gpu_share = total_gpu_s > 0 ? used / total_gpu_s : 0;
  }
  add_fairness(s, result.meter);
}

void add_guarantees(Summary& s, const std::map<std::string, uint64_t>& guaranteed, uint32_t cluster_gpus) {
  s.has_queue_tree = true;
  for (auto& [name, q] : s.queues) {
    const auto it = guaranteed.find(name);
    q.guaranteed_gpus = it != guaranteed.end() ? it->second : 0;
    q.guarantee_share = it != guaranteed.end() && cluster_gpus > 0
                            ? static_cast<double>(it->second) / static_cast<double>(cluster_gpus)
                            : 0;
  }
}

}  // namespace boreas::sim
