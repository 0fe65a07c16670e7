#include "sim/series_columns.h"

#include <algorithm>
#include <map>

namespace boreas::sim {

namespace {

std::string queue_name(const JobSpec& job, const SymbolTable& symbols) {
  const std::string_view name = symbols.view(job.queue);
  return name.empty() ? std::string("default") : std::string(name);
}

// GPUs held per queue at each sample time, swept from the job runs: a run holds its GPUs on
// [start, end), and a sample at t sees every event at or before t, as the engine samples.
std::vector<SeriesColumn> queue_columns(const RunOutput& run, std::span<const JobSpec> jobs,
                                        const SymbolTable& symbols) {
  const Summary& s = run.summary;
  std::map<std::string, size_t> index;
  std::vector<SeriesColumn> held, guaranteed;
  for (const auto& [name, q] : s.queues) {
    index[name] = held.size();
    held.push_back({"gpus:" + name, {}, 0});
    guaranteed.push_back({"guarantee:" + name, std::vector<double>(run.result.samples.size(),
                                                                   static_cast<double>(q.guaranteed_gpus)), 0});
  }
  struct Change {
    Time at;
    size_t queue;
    int64_t gpus;
  };
  std::vector<size_t> queue_of(run.result.jobs.size(), 0);
  for (const JobSpec& j : jobs) {
    queue_of[j.id.value()] = index.at(queue_name(j, symbols));
  }
  std::vector<Change> changes;
  for (const RunRecord& r : run.result.runs) {
    const size_t q = queue_of[r.job.value()];
    const auto n = static_cast<int64_t>(r.gpus.size());
    changes.push_back({r.start, q, n});
    if (!r.end.is_never()) {
      changes.push_back({r.end, q, -n});
    }
  }
  std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) { return a.at < b.at; });
  std::vector<int64_t> now(held.size(), 0);
  size_t next = 0;
  for (const Sample& sample : run.result.samples) {
    for (; next < changes.size() && changes[next].at <= sample.time; ++next) {
      now[changes[next].queue] += changes[next].gpus;
    }
    for (size_t q = 0; q < held.size(); ++q) {
      held[q].values.push_back(static_cast<double>(now[q]));
    }
  }
  std::vector<SeriesColumn> out;
  for (size_t q = 0; q < held.size(); ++q) {
    out.push_back(std::move(held[q]));
    out.push_back(std::move(guaranteed[q]));
  }
  return out;
}

// The physics samples zones at the engine's sample times, every zone each time, in order.
std::vector<SeriesColumn> zone_columns(const RunOutput& run, const Cluster& cluster) {
  const size_t zones = cluster.zones.size();
  const auto& z = run.result.zone_samples;
  if (zones == 0 || z.size() != run.result.samples.size() * zones) {
    return {};
  }
  std::vector<SeriesColumn> out;
  for (size_t k = 0; k < zones; ++k) {
    SeriesColumn power{"power_kw:" + cluster.zones[k].name, {}, 3};
    SeriesColumn temp{"temp_c:" + cluster.zones[k].name, {}, 2};
    for (size_t i = 0; i < run.result.samples.size(); ++i) {
      power.values.push_back(z[i * zones + k].power_kw);
      temp.values.push_back(z[i * zones + k].mean_gpu_c);
    }
    out.push_back(std::move(power));
    out.push_back(std::move(temp));
  }
  return out;
}

}  // namespace

std::vector<SeriesColumn> series_columns(const RunOutput& run, const Cluster& cluster, std::span<const JobSpec> jobs,
                                         const SymbolTable& symbols) {
  std::vector<SeriesColumn> out;
  if (run.summary.has_queue_tree) {
    out = queue_columns(run, jobs, symbols);
  }
  if (run.result.physics) {
    for (SeriesColumn& c : zone_columns(run, cluster)) {
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace boreas::sim
