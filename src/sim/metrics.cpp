#include "sim/metrics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "sim/named_groups.h"

namespace boreas::sim {

namespace {

// Where percentile p of n ascending values (n > 0) lies: `frac` of the way from rank lo to rank hi.
struct PercentileRank {
  size_t lo;
  size_t hi;
  double frac;
};

PercentileRank percentile_rank(size_t n, double p) {
  const double rank = p / 100.0 * static_cast<double>(n - 1);
  const auto lo = static_cast<size_t>(std::floor(rank));
  return {lo, std::min(lo + 1, n - 1), rank - static_cast<double>(lo)};
}

double interpolate(double low, double high, double frac) { return low + (high - low) * frac; }

// values[k] becomes the order statistic of rank k. Invariant: values[0, from) holds the `from`
// smallest values (in any order), so a rank at or past `from` is selected among the rest only.
double rank_value(std::span<double> values, size_t& from, size_t k) {
  if (k >= from) {
    std::nth_element(values.begin() + static_cast<ptrdiff_t>(from), values.begin() + static_cast<ptrdiff_t>(k),
                     values.end());
    from = k + 1;
  } else {
    std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(k),
                     values.begin() + static_cast<ptrdiff_t>(from));
  }
  return values[k];
}

}  // namespace

double percentile(std::span<const double> sorted, double p) {
  if (sorted.empty()) {
    return 0;
  }
  const PercentileRank r = percentile_rank(sorted.size(), p);
  return interpolate(sorted[r.lo], sorted[r.hi], r.frac);
}

void select_percentiles(std::span<double> values, std::span<const double> ps, std::span<double> out) {
  size_t from = 0;
  for (size_t i = 0; i < ps.size(); ++i) {
    if (values.empty()) {
      out[i] = 0;
      continue;
    }
    const PercentileRank r = percentile_rank(values.size(), ps[i]);
    const double low = rank_value(values, from, r.lo);
    const double high = rank_value(values, from, r.hi);
    out[i] = interpolate(low, high, r.frac);
  }
}

std::string group_name(Symbol sym, const SymbolTable& symbols) {
  return sym.empty() ? std::string("default") : std::string(symbols.view(sym));
}

namespace {

// Completed jobs of one group, collected before the statistics are taken.
struct Group {
  std::vector<double> jct;
  std::vector<double> slowdown;  // jobs with a duration > 0 only
  double queue_s = 0;
};

void add_job(Group& g, double jct, const JobSpec& spec, const state::JobRecord& r) {
  g.jct.push_back(jct);
  g.queue_s += r.pending_total.to_seconds();
  if (spec.duration > Duration::zero()) {
    g.slowdown.push_back(jct / spec.duration.to_seconds());
  }
}

constexpr std::array<double, 3> kJudgedPercentiles = {50, 95, 99};

// p50, p95 and p99 of `values` (reordered), by selection.
std::array<double, 3> judged_percentiles(std::vector<double>& values) {
  std::array<double, 3> out{};
  select_percentiles(values, kJudgedPercentiles, out);
  return out;
}

// Reorders the group's slowdowns and fills the statistics every group has.
JctStats stats_of(Group& g) {
  JctStats s;
  s.jobs = g.jct.size();
  if (!g.jct.empty()) {
    s.avg_jct_s = std::accumulate(g.jct.begin(), g.jct.end(), 0.0) / static_cast<double>(g.jct.size());
  }
  const auto [p50, p95, p99] = judged_percentiles(g.slowdown);
  s.slowdown_p50 = p50;
  s.slowdown_p95 = p95;
  s.slowdown_p99 = p99;
  return s;
}

void finish_groups(std::map<std::string, Group>& queues, std::map<std::string, Group>& classes, Summary& s) {
  for (auto& [name, g] : queues) {
    const JctStats st = stats_of(g);
    QueueSummary& q = s.queues[name];
    q.jobs = st.jobs;
    q.avg_jct_s = st.avg_jct_s;
    q.avg_queue_s = g.queue_s / static_cast<double>(st.jobs);
    q.slowdown_p50 = st.slowdown_p50;
    q.slowdown_p95 = st.slowdown_p95;
    q.slowdown_p99 = st.slowdown_p99;
  }
  for (auto& [name, g] : classes) {
    s.classes[name] = stats_of(g);
  }
}

// The whole run's JCT statistics (percentiles as the peers compute them).
void add_jct(Summary& s, Group& all) {
  const JctStats st = stats_of(all);  // the average first: it sums the JCTs in job order
  const auto [p50, p95, p99] = judged_percentiles(all.jct);
  s.completed = st.jobs;
  s.avg_jct_s = st.avg_jct_s;
  s.p50_jct_s = p50;
  s.p95_jct_s = p95;
  s.p99_jct_s = p99;
  s.avg_queue_s = st.jobs > 0 ? all.queue_s / static_cast<double>(st.jobs) : 0;
  s.slowdown_p50 = st.slowdown_p50;
  s.slowdown_p95 = st.slowdown_p95;
  s.slowdown_p99 = st.slowdown_p99;
}

// Total wait of a job that ever waited; one still pending at the end waits until the run ends.
double wait_of(const state::JobRecord& r, NeverStarted never, Time run_end) {
  if (never == NeverStarted::kExceedsCluster || !r.submitted) {
    return 0;
  }
  double wait = r.pending_total.to_seconds();
  const bool waiting = r.state == JobState::kPending || r.state == JobState::kPreempted;
  if (waiting && run_end > r.pending_since) {
    wait += (run_end - r.pending_since).to_seconds();
  }
  return wait;
}

void add_window(Summary& s, const SimResult& result, uint32_t cluster_gpus) {
  const MeterTotals& m = result.meter;
  if (m.window_start.is_never() || m.window_end.is_never()) {
    return;
  }
  s.window_start_s = (m.window_start - result.first_submit).to_seconds();
  s.window_end_s = (m.window_end - result.first_submit).to_seconds();
  const double capacity = static_cast<double>(cluster_gpus) * (s.window_end_s - s.window_start_s);
  if (capacity > 0) {
    s.window_utilization = m.window_allocated_gpu_s / capacity;
    s.work_utilization = m.window_work_gpu_s / capacity;
  }
  s.idle_gpu_hours_while_waiting = m.idle_while_waiting_gpu_s / 3600.0;
}

void add_recovery(Summary& s, const SimResult& result) {
  std::vector<double> sorted = result.recovery_s;
  std::sort(sorted.begin(), sorted.end());
  s.recoveries = sorted.size();
  if (!sorted.empty()) {
    s.recovery_time_mean_s = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
  }
  s.recovery_time_p95_s = percentile(sorted, 95);
}

// GPU-hours held by each job's runs, by GPU type name; an open run counts to the run's end.
std::map<std::string, double> gpu_hours_by_type(const SimResult& result, const Cluster& cluster,
                                                const std::vector<uint32_t>& node_of_gpu,
                                                const std::vector<uint32_t>& runs) {
  std::map<std::string, double> out;
  for (uint32_t i : runs) {
    const RunRecord& run = result.runs[i];
    const Time end = run.end.is_never() ? result.last_end : run.end;
    const double hours = (end - run.start).to_seconds() / 3600.0;
    for (GpuId g : run.gpus) {
      const Node& node = cluster.nodes[node_of_gpu[g.value()]];
      out[node.gpu_type ? cluster.catalog.at(*node.gpu_type).name : std::string("none")] += hours;
    }
  }
  return out;
}

}  // namespace

void add_job_class_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                           const SymbolTable& symbols, const Cluster& cluster) {
  if (std::none_of(jobs.begin(), jobs.end(), [](const JobSpec& j) { return !j.job_class.empty(); })) {
    return;
  }
  std::vector<uint32_t> node_of_gpu(cluster.gpu_count());
  for (uint32_t n = 0; n < cluster.nodes.size(); ++n) {
    const Node& node = cluster.nodes[n];
    std::fill_n(node_of_gpu.begin() + node.first_gpu, node.gpu_count, n);
  }
  std::vector<std::vector<uint32_t>> runs_of(jobs.size());
  for (uint32_t i = 0; i < result.runs.size(); ++i) {
    runs_of[result.runs[i].job.value()].push_back(i);
  }
  std::map<std::string, Group> groups;
  for (const JobSpec& j : jobs) {
    const std::string name = group_name(j.job_class, symbols);
    JobClassSummary& c = s.job_classes[name];
    for (const auto& [type, hours] : gpu_hours_by_type(result, cluster, node_of_gpu, runs_of[j.id.value()])) {
      c.gpu_share[type] += hours;
      c.gpu_hours += hours;
    }
    const state::JobRecord& r = result.jobs[j.id.value()];
    if (r.state == JobState::kCompleted) {
      add_job(groups[name], (r.end - j.submit).to_seconds(), j, r);
    }
  }
  for (auto& [name, c] : s.job_classes) {
    const JctStats st = stats_of(groups[name]);
    c.jobs = st.jobs;
    c.avg_jct_s = st.avg_jct_s;
    for (auto& [type, h] : c.gpu_share) {
      h = c.gpu_hours > 0 ? h / c.gpu_hours : 0;
    }
  }
}

void add_multi_node_metrics(Summary& s, const SimResult& result, std::span<const JobSpec> jobs,
                            const Cluster& cluster) {
  uint32_t largest_node = 0;
  for (const Node& n : cluster.nodes) {
    largest_node = std::max(largest_node, n.gpu_count);
  }
  double jct_sum = 0;
  for (const JobSpec& j : jobs) {
    const state::JobRecord& r = result.jobs[j.id.value()];
    if (j.gpus > largest_node && r.state == JobState::kCompleted) {
      ++s.multi_node_jobs;
      jct_sum += (r.end - j.submit).to_seconds();
    }
  }
  s.avg_jct_multi_node_s = s.multi_node_jobs > 0 ? jct_sum / static_cast<double>(s.multi_node_jobs) : 0;
}

Summary summarize(const SimResult& result, std::span<const JobSpec> jobs, const SymbolTable& symbols,
                  uint32_t cluster_gpus) {
  Summary s;
  s.jobs = jobs.size();
  Group all;
  std::map<std::string, Group> queues, classes;
  NamedGroups<Group> queue_of, class_of;
  const auto name_of = [&](Symbol sym) { return group_name(sym, symbols); };
  double work = 0;
  for (const JobSpec& j : jobs) {
    const state::JobRecord& r = result.jobs[j.id.value()];
    s.preemptions += r.preemptions;
    s.max_queue_s = std::max(s.max_queue_s, wait_of(r, result.never_started[j.id.value()], result.last_end));
    if (r.state != JobState::kCompleted) {
      continue;
    }
    const double t = (r.end - j.submit).to_seconds();
    work += j.duration.to_seconds() * j.gpus;
    add_job(all, t, j, r);
    add_job(queue_of.of(j.queue, queues, name_of), t, j, r);
    add_job(class_of.of(j.priority_class, classes, name_of), t, j, r);
  }
  add_jct(s, all);
  s.completed_ref_gpu_hours = work / 3600.0;
  s.makespan_s = (result.last_end - result.first_submit).to_seconds();
  if (s.makespan_s > 0 && cluster_gpus > 0) {
    s.utilization = work / (static_cast<double>(cluster_gpus) * s.makespan_s);
  }
  finish_groups(queues, classes, s);
  add_window(s, result, cluster_gpus);
  add_tenancy_metrics(s, result, jobs, symbols);
  add_physics_metrics(s, result, jobs, symbols, cluster_gpus);
  add_recovery(s, result);
  return s;
}

}  // namespace boreas::sim
