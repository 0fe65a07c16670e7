#include "serving/summary.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace boreas::serving {

double percentile(std::vector<double>& v, double q) {
  if (v.empty()) {
    return 0;
  }
  const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
  const size_t k = std::clamp<size_t>(rank, 1, v.size()) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

double percentile(std::vector<GapSample>& v, double q) {
  std::sort(v.begin(), v.end(), [](const GapSample& a, const GapSample& b) { return a.seconds < b.seconds; });
  int64_t total = 0;
  for (const auto& g : v) {
    total += g.count;
  }
  const auto rank = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(q * static_cast<double>(total))));
  int64_t seen = 0;
  for (const auto& g : v) {
    seen += g.count;
    if (seen >= rank) {
      return g.seconds;
    }
  }
  return 0;
}

namespace {

// Latency percentiles, and the requests within the absolute thresholds.
size_t latency_percentiles(const RequestTrace& trace, const ServiceSpec& service, const ServingRun& run, Summary* s) {
  std::vector<double> ttft;
  std::vector<double> e2e;
  size_t met = 0;
  for (size_t i = 0; i < run.outcomes.size(); ++i) {
    const auto& o = run.outcomes[i];
    const auto& r = trace.requests[i];
    const double t = static_cast<double>(o.first_token_us - r.arrival_us) / 1e6;
    const double e = static_cast<double>(o.done_us - r.arrival_us) / 1e6;
    ttft.push_back(t);
    e2e.push_back(e);
    const double mean_tbt = r.output_tokens > 1 ? (e - t) / (r.output_tokens - 1) : 0;
    met += (t <= service.slo.ttft_s && mean_tbt <= service.slo.tbt_s) ? 1 : 0;
  }
  s->ttft_p50_s = percentile(ttft, 0.5);
  s->ttft_p90_s = percentile(ttft, 0.9);
  s->ttft_p99_s = percentile(ttft, 0.99);
  s->e2e_p50_s = percentile(e2e, 0.5);
  s->e2e_p90_s = percentile(e2e, 0.9);
  s->e2e_p99_s = percentile(e2e, 0.99);
  return met;
}

// slo_attainment, slo_met and goodput under the service's SLO kind.
void slo(const RequestTrace& trace, const ServiceSpec& service, const GpuType& gpu, const ServingRun& run,
         size_t absolute_met, Summary* s) {
  const SlowdownReport report = slowdown_report(trace, service, gpu, run.outcomes);
  s->slowdown = report.rows;
  const bool absolute = service.slo.kind == SloKind::kAbsolute;
  const size_t met = absolute ? absolute_met : report.within;
  s->slo_attainment = static_cast<double>(met) / static_cast<double>(run.outcomes.size());
  s->slo_met = absolute ? s->slo_attainment >= service.slo.target : report.met;
  s->goodput_rps = run.end_s > 0 ? static_cast<double>(met) / run.end_s : 0;
}

void token_gaps(const ServingRun& run, Summary* s) {
  std::vector<GapSample> tbt = run.tbt;
  s->tbt_p50_s = percentile(tbt, 0.5);
  s->tbt_p90_s = percentile(tbt, 0.9);
  s->tbt_p99_s = percentile(tbt, 0.99);  // tbt is sorted from here on
  int64_t total = 0;
  for (const auto& g : tbt) {
    total += g.count;
  }
  const int64_t top = std::max<int64_t>(1, total / 10);
  int64_t taken = 0;
  double sum = 0;
  for (auto it = tbt.rbegin(); it != tbt.rend() && taken < top; ++it) {
    const int64_t n = std::min(it->count, top - taken);
    sum += it->seconds * static_cast<double>(n);
    taken += n;
  }
  s->tbt_top10_mean_s = taken == 0 ? 0 : sum / static_cast<double>(taken);
}

}  // namespace

Summary summarize(const RequestTrace& trace, const ServiceSpec& service, const GpuType& gpu, const ServingRun& run) {
  Summary s;
  const size_t absolute_met = latency_percentiles(trace, service, run, &s);
  slo(trace, service, gpu, run, absolute_met, &s);
  token_gaps(run, &s);
  const double gpu_seconds = run.replica_seconds * service.tp;
  s.gpu_hours = gpu_seconds / 3600;
  s.cost_usd = s.gpu_hours * gpu.price.on_demand_usd_per_hour;
  const double joules = gpu_seconds * gpu.idle_w + run.busy_gpu_seconds * (gpu.tdp_w - gpu.idle_w);
  s.energy_kwh = joules / 3.6e6;
  return s;
}

namespace {

nlohmann::json summary_fields(const Summary& s, const ServingRun& run, const ServiceSpec& service, size_t requests);

nlohmann::json slo_json(const Summary& s, const ServiceSpec& service, nlohmann::json* j) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : s.slowdown) {
    const std::string key = fmt::format("{}_slowdown_p{}", r.metric, static_cast<int>(std::lround(r.quantile * 100)));
    (*j)[key] = r.slowdown;
    rows.push_back({{"metric", r.metric}, {"quantile", r.quantile}, {"limit", r.limit}, {"slowdown", r.slowdown},
                    {"pass", r.pass}});
  }
  (*j)["slo_kind"] = service.slo.kind == SloKind::kAbsolute ? "absolute" : "slowdown";
  if (service.slo.kind == SloKind::kAbsolute) {
    (*j)["slo_ttft_s"] = service.slo.ttft_s;
    (*j)["slo_tbt_s"] = service.slo.tbt_s;
    (*j)["slo_target"] = service.slo.target;
  }
  (*j)["slo_met"] = s.slo_met;
  return rows;
}

}  // namespace

nlohmann::json summary_json(const Summary& s, const ServingRun& run, const ServiceSpec& service, size_t requests) {
  nlohmann::json j = summary_fields(s, run, service, requests);
  j["slo_rows"] = slo_json(s, service, &j);
  return j;
}

namespace {

nlohmann::json summary_fields(const Summary& s, const ServingRun& run, const ServiceSpec& service, size_t requests) {
  return {{"service", service.name},
          {"requests", requests},
          {"ttft_p50_s", s.ttft_p50_s},
          {"ttft_p90_s", s.ttft_p90_s},
          {"ttft_p99_s", s.ttft_p99_s},
          {"tbt_p50_s", s.tbt_p50_s},
          {"tbt_p90_s", s.tbt_p90_s},
          {"tbt_p99_s", s.tbt_p99_s},
          {"tbt_top10_mean_s", s.tbt_top10_mean_s},
          {"e2e_p50_s", s.e2e_p50_s},
          {"e2e_p90_s", s.e2e_p90_s},
          {"e2e_p99_s", s.e2e_p99_s},
          {"slo_attainment", s.slo_attainment},
          {"goodput_rps", s.goodput_rps},
          {"gpu_hours", s.gpu_hours},
          {"cost_usd", s.cost_usd},
          {"energy_kwh", s.energy_kwh},
          {"cold_starts", run.cold_starts},
          {"cold_start_s", run.cold_start_s},
          {"cold_start_seconds_total", run.cold_start_seconds},
          {"max_replicas", run.max_replicas},
          {"kv_capacity_tokens", run.kv_capacity_tokens},
          {"prefix_hit_ratio", run.prefix.ratio()},
          {"duration_s", run.end_s}};
}

}  // namespace

}  // namespace boreas::serving
