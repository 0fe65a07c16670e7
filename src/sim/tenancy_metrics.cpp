// Multi-tenancy summary keys (docs/multitenancy.md, docs/formats/sim-output.md).
#include <algorithm>

#include "sim/metrics.h"

namespace boreas::sim {

double jain_index(std::span<const double> x) {
  double sum = 0, squares = 0;
  for (double v : x) {
    sum += v;
    squares += v * v;
  }
  return squares > 0 ? sum * sum / (static_cast<double>(x.size()) * squares) : 0;
}

void add_tenancy_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                         const SymbolTable& symbols) {
  std::vector<double> preemptions;
  std::map<std::string, std::pair<double, uint64_t>> classes;  // Σ JCT, n
  std::map<std::string, double> gpu_s;
  double total_gpu_s = 0;
  for (const JobSpec& j : jobs) {
    const state::JobRecord& r = result.jobs[j.id.value()];
    preemptions.push_back(r.preemptions);
    const double used = r.run_time.to_seconds() * j.gpus;
    const std::string_view queue = symbols.view(j.queue);
    gpu_s[queue.empty() ? std::string("default") : std::string(queue)] += used;  // as summarize names it
    total_gpu_s += used;
    if (r.state == JobState::kCompleted) {
      auto& c = classes[j.priority_class.empty() ? "default" : std::string(symbols.view(j.priority_class))];
      c.first += (r.end - j.submit).to_seconds();
      c.second += 1;
    }
  }
  std::sort(preemptions.begin(), preemptions.end());
  s.preemptions_per_job_p99 = percentile(preemptions, 99);
  for (const auto& [name, c] : classes) {
    s.class_avg_jct_s[name] = c.first / static_cast<double>(c.second);
  }
  std::vector<double> shares;
  for (const auto& [name, used] : gpu_s) {
    s.queues[name].gpu_share = total_gpu_s > 0 ? used / total_gpu_s : 0;
    shares.push_back(s.queues[name].gpu_share);
  }
  s.jain_fairness = jain_index(shares);
}

void add_guarantees(Summary& s, const std::map<std::string, uint64_t>& guaranteed, uint32_t cluster_gpus) {
  std::vector<double> normalized;
  s.has_queue_tree = true;
  for (auto& [name, q] : s.queues) {
    const auto it = guaranteed.find(name);
    q.guaranteed_gpus = it != guaranteed.end() ? it->second : 0;
    q.guarantee_share = it != guaranteed.end() && cluster_gpus > 0
                            ? static_cast<double>(it->second) / static_cast<double>(cluster_gpus)
                            : 0;
    if (q.guarantee_share > 0) {
      normalized.push_back(q.gpu_share / q.guarantee_share);
    }
  }
  if (!normalized.empty()) {
    s.jain_fairness = jain_index(normalized);
  }
}

}  // namespace boreas::sim
