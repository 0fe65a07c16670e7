// The physics keys of summary.json (docs/formats/sim-output.md).

#include <string>

#include "sim/metrics.h"

namespace boreas::sim {

void add_physics_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                         const SymbolTable& symbols, uint32_t cluster_gpus) {
  if (!result.physics) {
    return;
  }
  s.physics = *result.physics;
  const PhysicsTotals& p = *s.physics;
  s.avg_pue = p.energy_it_kwh > 0 ? p.energy_facility_kwh / p.energy_it_kwh : 0;
  // summarize's makespan utilization already counts useful (reference) work only; held GPU time
  // is larger by lost work, checkpoint writes and slow clocks.
  s.effective_utilization = s.utilization;
  double held = 0;
  for (const JobSpec& j : jobs) {
    held += result.jobs[j.id.value()].run_time.to_seconds() * j.gpus;
  }
  if (s.makespan_s > 0 && cluster_gpus > 0) {
    s.allocated_utilization = held / (static_cast<double>(cluster_gpus) * s.makespan_s);
  }
  s.energy_facility_kwh_window = result.meter.window_facility_kwh;
  if (s.completed_ref_gpu_hours > 0) {
    s.energy_kwh_per_ref_gpu_hour = p.energy_facility_kwh / s.completed_ref_gpu_hours;
    s.cost_usd_per_ref_gpu_hour = p.cost_usd / s.completed_ref_gpu_hours;
  }
  for (size_t q = 0; q < p.queue_cost_usd.size(); ++q) {
    if (p.queue_cost_usd[q] == 0 && p.queue_energy_kwh[q] == 0) {
      continue;
    }
    const std::string_view name = symbols.view(Symbol(static_cast<uint32_t>(q)));
    QueueSummary& qs = s.queues[name.empty() ? std::string("default") : std::string(name)];
    qs.cost_usd += p.queue_cost_usd[q];
    qs.energy_kwh += p.queue_energy_kwh[q];
  }
}

}  // namespace boreas::sim
