#include "sim/metrics.h"

#include <algorithm>
#include <cmath>

namespace boreas::sim {

double percentile(std::span<const double> sorted, double p) {
  if (sorted.empty()) {
    return 0;
  }
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - static_cast<double>(lo));
}

namespace {

struct Sums {
  uint64_t n = 0;
  double jct = 0;
  double queue = 0;
};

void finish_queues(const std::map<std::string, Sums>& sums, Summary& s) {
  for (const auto& [name, q] : sums) {
    s.queues[name] = QueueSummary{q.n, q.jct / static_cast<double>(q.n), q.queue / static_cast<double>(q.n)};
  }
}

}  // namespace

Summary summarize(const SimResult& result, std::span<const JobSpec> jobs, const SymbolTable& symbols,
                  uint32_t cluster_gpus) {
  Summary s;
  s.jobs = jobs.size();
  std::vector<double> jct;
  std::map<std::string, Sums> queues;
  double work = 0, queue_total = 0;
  for (const JobSpec& j : jobs) {
    const state::JobRecord& r = result.jobs[j.id.value()];
    s.preemptions += r.preemptions;
    if (r.state != JobState::kCompleted) {
      continue;
    }
    const double t = (r.end - j.submit).to_seconds();
    jct.push_back(t);
    queue_total += r.pending_total.to_seconds();
    work += j.duration.to_seconds() * j.gpus;
    const std::string_view queue = symbols.view(j.queue);
    Sums& q = queues[queue.empty() ? std::string("default") : std::string(queue)];
    q.n += 1;
    q.jct += t;
    q.queue += r.pending_total.to_seconds();
  }
  s.completed = jct.size();
  if (!jct.empty()) {
    double total = 0;
    for (double x : jct) {
      total += x;
    }
    std::sort(jct.begin(), jct.end());
    s.avg_jct_s = total / static_cast<double>(jct.size());
    s.p50_jct_s = percentile(jct, 50);
    s.p95_jct_s = percentile(jct, 95);
    s.p99_jct_s = percentile(jct, 99);
    s.avg_queue_s = queue_total / static_cast<double>(jct.size());
  }
  s.makespan_s = (result.last_end - result.first_submit).to_seconds();
  if (s.makespan_s > 0 && cluster_gpus > 0) {
    s.utilization = work / (static_cast<double>(cluster_gpus) * s.makespan_s);
  }
  finish_queues(queues, s);
  add_tenancy_metrics(s, result, jobs, symbols);
  add_physics_metrics(s, result, jobs, symbols, cluster_gpus);
  return s;
}

}  // namespace boreas::sim
