#include "trace/stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace boreas::trace {
namespace {

constexpr std::pair<const char*, double> kPercentiles[] = {{"min", 0.0},  {"p25", 0.25}, {"p50", 0.5},
                                                           {"p75", 0.75}, {"p90", 0.9},  {"p99", 0.99},
                                                           {"max", 1.0}};

double job_gpu_hours(const JobSpec& j) {
  return j.duration.to_seconds() * j.gpus * (j.gpu_milli / 1000.0) / 3600.0;
}

}  // namespace

double percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) {
    return 0;
  }
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

TraceStats compute_stats(const Trace& trace) {
  TraceStats s;
  std::vector<double> durations;
  durations.reserve(trace.jobs.size());
  for (const auto& j : trace.jobs) {
    ++s.jobs;
    s.cpu_only_jobs += j.gpus == 0 ? 1 : 0;
    ++s.gpu_histogram[j.gpus];
    auto& q = s.queues[std::string(trace.symbols.view(j.queue))];
    ++q.jobs;
    if (j.duration.is_infinite()) {
      ++s.open_ended_jobs;
      continue;
    }
    durations.push_back(j.duration.to_seconds());
    q.gpu_hours += job_gpu_hours(j);
    s.gpu_hours += job_gpu_hours(j);
  }
  if (!trace.jobs.empty()) {
    s.span = trace.jobs.back().submit - trace.jobs.front().submit;
  }
  std::sort(durations.begin(), durations.end());
  for (const auto& [name, q] : kPercentiles) {
    s.duration_s[name] = percentile(durations, q);
  }
  double sum = 0;
  for (const double d : durations) {
    sum += d;
  }
  s.mean_duration_s = durations.empty() ? 0 : sum / static_cast<double>(durations.size());
  return s;
}

std::optional<double> offered_load(const TraceStats& stats, uint32_t cluster_gpus) {
  if (cluster_gpus == 0 || stats.span.us() <= 0) {
    return std::nullopt;
  }
  return stats.gpu_hours * 3600.0 / (cluster_gpus * stats.span.to_seconds());
}

std::string stats_text(const TraceStats& s, std::optional<uint32_t> cluster_gpus) {
  std::string out = fmt::format("jobs          {} ({} CPU-only, {} open-ended)\n", s.jobs, s.cpu_only_jobs,
                                s.open_ended_jobs);
  out += fmt::format("submit span   {} ({:.2f} days)\n", to_string(s.span), s.span.to_seconds() / 86400);
  out += fmt::format("GPU-hours     {:.1f}\n", s.gpu_hours);
  if (cluster_gpus) {
    const auto load = offered_load(s, *cluster_gpus);
    out += load ? fmt::format("offered load  {:.3f} on {} GPUs\n", *load, *cluster_gpus)
                : std::string("offered load  n/a (zero span or no GPUs)\n");
  }
  out += "duration (s) ";
  for (const auto& [name, q] : kPercentiles) {
    out += fmt::format(" {} {:.0f}", name, s.duration_s.at(name));
  }
  out += fmt::format("  mean {:.0f}\nGPUs per job ", s.mean_duration_s);
  for (const auto& [gpus, n] : s.gpu_histogram) {
    out += fmt::format(" {}:{}", gpus, n);
  }
  out += "\nqueue                     jobs   GPU-hours\n";
  for (const auto& [name, q] : s.queues) {
    out += fmt::format("{:<20} {:>9} {:>11.1f}\n", name.empty() ? "(none)" : name, q.jobs, q.gpu_hours);
  }
  return out;
}

std::string stats_json(const TraceStats& s, std::optional<uint32_t> cluster_gpus) {
  nlohmann::json j;
  j["jobs"] = s.jobs;
  j["cpu_only_jobs"] = s.cpu_only_jobs;
  j["open_ended_jobs"] = s.open_ended_jobs;
  j["span_s"] = s.span.to_seconds();
  j["gpu_hours"] = s.gpu_hours;
  j["duration_s"] = s.duration_s;
  j["duration_s"]["mean"] = s.mean_duration_s;
  auto& hist = j["gpu_histogram"] = nlohmann::json::object();
  for (const auto& [gpus, n] : s.gpu_histogram) {
    hist[std::to_string(gpus)] = n;
  }
  auto& queues = j["queues"] = nlohmann::json::object();
  for (const auto& [name, q] : s.queues) {
    queues[name] = {{"jobs", q.jobs}, {"gpu_hours", q.gpu_hours}};
  }
  if (cluster_gpus) {
    const auto load = offered_load(s, *cluster_gpus);
    j["cluster_gpus"] = *cluster_gpus;
    j["offered_load"] = load ? nlohmann::json(*load) : nlohmann::json();
  }
  return j.dump(2) + "\n";
}

}  // namespace boreas::trace
