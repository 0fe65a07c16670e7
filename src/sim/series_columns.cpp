#include "sim/series_columns.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>
#include <map>

#include "sim/sample_cursor.h"

namespace boreas::sim {

namespace {

std::string queue_name(const JobSpec& job, const SymbolTable& symbols) {
  const std::string_view name = symbols.view(job.queue);
  return name.empty() ? std::string("default") : std::string(name);
}

// GPUs held per queue at each sample time, from the job runs: a run holds its GPUs on
// [start, end), and a sample at t sees every event at or before t, as the engine samples. Each
// start and end is added to the first sample that sees it, then summed along the samples: integer
// sums, so no order of the changes is needed.
std::vector<SeriesColumn> queue_columns(const RunOutput& run, std::span<const JobSpec> jobs,
                                        const SymbolTable& symbols) {
  const Summary& s = run.summary;
  const std::vector<Sample>& samples = run.result.samples;
  std::map<std::string, size_t> index;
  std::vector<SeriesColumn> held, guaranteed;
  for (const auto& [name, q] : s.queues) {
    index[name] = held.size();
    held.push_back({"gpus:" + name, {}, 0});
    held.back().values.reserve(samples.size());
    guaranteed.push_back({"guarantee:" + name, std::vector<double>(samples.size(),
                                                                   static_cast<double>(q.guaranteed_gpus)), 0});
  }
  std::vector<size_t> queue_of(run.result.jobs.size(), 0);
  std::map<uint32_t, size_t> by_symbol;  // queue symbol -> column
  for (const JobSpec& j : jobs) {
    const auto [it, added] = by_symbol.emplace(j.queue.index(), 0);
    if (added) {
      it->second = index.at(queue_name(j, symbols));
    }
    queue_of[j.id.value()] = it->second;
  }
  const size_t queues = held.size();
  std::vector<int64_t> delta((samples.size() + 1) * queues, 0);  // by (first sample seeing it, queue)
  SampleCursor starts(samples);  // runs are recorded in start order: a forward walk, mostly
  // The ends come in no order: a binary search over the times alone (8 bytes a sample, not a Sample).
  std::vector<Time> times;
  times.reserve(samples.size());
  for (const Sample& sample : samples) {
    times.push_back(sample.time);
  }
  auto add = [&](size_t first, size_t q, int64_t gpus) { delta[first * queues + q] += gpus; };
  for (const RunRecord& r : run.result.runs) {
    const size_t q = queue_of[r.job.value()];
    const auto n = static_cast<int64_t>(r.gpus.size());
    add(starts.first_at_or_after(r.start), q, n);
    if (!r.end.is_never()) {
      const auto end = std::lower_bound(times.begin(), times.end(), r.end);
      add(static_cast<size_t>(end - times.begin()), q, -n);
    }
  }
  std::vector<int64_t> now(queues, 0);
  for (size_t i = 0; i < samples.size(); ++i) {
    for (size_t q = 0; q < queues; ++q) {
      now[q] += delta[i * queues + q];
      held[q].values.push_back(static_cast<double>(now[q]));
    }
  }
  std::vector<SeriesColumn> out;
  for (size_t q = 0; q < queues; ++q) {
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

void append_column_value(fmt::memory_buffer& out, double value, int decimals) {
  out.push_back(',');
  constexpr double kExactInts = 9007199254740992.0;  // 2^53: every whole number below is exact
  if (decimals == 0 && value >= 0 && value < kExactInts && !std::signbit(value) && value == std::floor(value)) {
    const fmt::format_int text(static_cast<int64_t>(value));  // the digits "{}" writes, without its parse
    out.append(text.data(), text.data() + text.size());
    return;
  }
  fmt::format_to(std::back_inserter(out), "{:.{}f}", value, decimals);
}

void ColumnText::append(fmt::memory_buffer& out, double value, int decimals) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  if (known_ && bits == bits_ && decimals == decimals_) {
    out.append(text_.data(), text_.data() + text_.size());
    return;
  }
  const size_t from = out.size();
  append_column_value(out, value, decimals);
  text_.assign(out.data() + from, out.size() - from);
  known_ = true;
  bits_ = bits;
  decimals_ = decimals;
}

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
