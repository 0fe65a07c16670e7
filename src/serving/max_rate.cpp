#include "serving/max_rate.h"

#include <fmt/format.h>

#include <cmath>

#include "serving/summary.h"

namespace boreas::serving {

namespace {

constexpr double kWidestScale = 1 << 20;  // bracketing gives up past 2^20 x or 2^-20 x the trace's rate

class Prober {
 public:
  Prober(const RequestTrace& trace, const ServiceSpec& service, const Placement& placement, const SimOptions& sim,
         double base_rate)
      : trace_(trace), service_(service), placement_(placement), sim_(sim), base_rate_(base_rate) {}

  Result<bool> met(double scale) {
    const RequestTrace scaled = time_scaled(trace_, scale);
    auto run = simulate(scaled, service_, placement_, sim_);
    if (!run.is_ok()) {
      return run.status();
    }
    const Summary s = summarize(scaled, service_, placement_.gpu, *run);
    probes_.push_back({base_rate_ * scale, scale, s.slo_met, s.slo_attainment});
    return s.slo_met;
  }
  std::vector<RateProbe>& probes() { return probes_; }

 private:
  const RequestTrace& trace_;
  const ServiceSpec& service_;
  const Placement& placement_;
  const SimOptions& sim_;
  double base_rate_;
  std::vector<RateProbe> probes_;
};

// Doubles (from a met scale) or halves (from a failed one) until the other outcome: [met, failed].
Result<std::pair<double, double>> bracket(Prober& p, const std::string& name) {
  auto first = p.met(1);
  if (!first.is_ok()) {
    return first.status();
  }
  const double step = *first ? 2 : 0.5;
  double last = 1;
  for (double s = step; s <= kWidestScale && s >= 1 / kWidestScale; s *= step) {
    auto m = p.met(s);
    if (!m.is_ok()) {
      return m.status();
    }
    if (*m != *first) {
      return *first ? std::pair{last, s} : std::pair{s, last};
    }
    last = s;
  }
  return invalid_argument(
      *first ? fmt::format("service '{}' meets its SLO even at 2^20 x the trace's rate; the trace is too short to load "
                           "it, use a longer trace",
                           name)
             : fmt::format("service '{}' misses its SLO even at 2^-20 x the trace's rate (one request at a time): "
                           "some request cannot meet it alone; check the SLO (slo_rows in summary.json)",
                           name));
}

}  // namespace

ServiceSpec pinned_at_max(const ServiceSpec& service) {
  ServiceSpec s = service;
  s.autoscaler.kind = AutoscalerKind::kNone;
  s.autoscaler.min_replicas = s.autoscaler.max_replicas;
  s.autoscaler.initial_replicas = s.autoscaler.max_replicas;
  return s;
}

RequestTrace time_scaled(const RequestTrace& trace, double scale) {
  RequestTrace t = trace;
  for (auto& r : t.requests) {
    r.arrival_us = std::llround(static_cast<double>(r.arrival_us) / scale);
  }
  return t;
}

Result<double> request_rate(const RequestTrace& trace) {
  if (trace.requests.empty() || trace.requests.back().arrival_us <= trace.requests.front().arrival_us) {
    return invalid_argument("the request trace's arrivals span no time, so it has no rate to scale; use a trace with "
                            "requests at different times");
  }
  const double span_s = static_cast<double>(trace.requests.back().arrival_us - trace.requests.front().arrival_us) / 1e6;
  return static_cast<double>(trace.requests.size()) / span_s;
}

Result<MaxRateResult> find_max_rate(const RequestTrace& trace, const ServiceSpec& service, const Placement& placement,
                                    const SimOptions& sim, const MaxRateOptions& options) {
  auto base = request_rate(trace);
  if (!base.is_ok()) {
    return base.status();
  }
  const ServiceSpec pinned = pinned_at_max(service);
  Prober p(trace, pinned, placement, sim, *base);
  auto range = bracket(p, service.name);
  if (!range.is_ok()) {
    return range.status();
  }
  auto [lo, hi] = *range;
  while ((hi - lo) / lo > options.tolerance && static_cast<int32_t>(p.probes().size()) < options.max_probes) {
    const double mid = std::sqrt(lo * hi);
    auto m = p.met(mid);
    if (!m.is_ok()) {
      return m.status();
    }
    (*m ? lo : hi) = mid;
  }
  return MaxRateResult{*base * lo, *base, lo, pinned.autoscaler.max_replicas, std::move(p.probes())};
}

}  // namespace boreas::serving
