#include "trace/synth.h"

#include <cmath>
#include <numbers>
#include <random>

namespace boreas::trace {
namespace {

// Distributions written out here: std:: distributions may differ between standard libraries.
class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  // Uniform in [0, 1) from the top 53 bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }

 private:
  std::mt19937_64 engine_;
};

// Picks an index with probability proportional to the cumulative weights' steps.
size_t pick(const std::vector<double>& cumulative, double u) {
  const double x = u * cumulative.back();
  size_t i = 0;
  while (i + 1 < cumulative.size() && x >= cumulative[i]) {
    ++i;
  }
  return i;
}

double quantile(const std::vector<std::pair<double, double>>& knots, double u) {
  size_t i = 1;
  while (i + 1 < knots.size() && u > knots[i].first) {
    ++i;
  }
  const auto [q0, v0] = knots[i - 1];
  const auto [q1, v1] = knots[i];
  const double f = q1 > q0 ? (u - q0) / (q1 - q0) : 0;
  return std::exp(std::log(v0) + f * (std::log(v1) - std::log(v0)));
}

struct TenantTables {
  Symbol queue;
  std::vector<double> gpu_cumulative;
};

std::vector<double> cumulative(const std::vector<double>& weights) {
  std::vector<double> c;
  double sum = 0;
  for (const double w : weights) {
    c.push_back(sum += w);
  }
  return c;
}

class Arrivals {
 public:
  Arrivals(const SynthSpec& spec, Rng& rng) : spec_(spec), rng_(rng) {}
  // Next arrival in seconds; diurnal arrivals by thinning a Poisson process at the peak rate.
  double next() {
    if (spec_.arrival == ArrivalKind::kPoisson) {
      return t_ += rng_.exponential(spec_.mean_interarrival_s);
    }
    const double a = spec_.diurnal_amplitude;
    while (true) {
      t_ += rng_.exponential(spec_.mean_interarrival_s / (1 + a));
      const double rate = 1 + a * std::sin(2 * std::numbers::pi * t_ / 86400.0);
      if (rng_.uniform() * (1 + a) < rate) {
        return t_;
      }
    }
  }

 private:
  const SynthSpec& spec_;
  Rng& rng_;
  double t_ = 0;
};

const std::vector<std::pair<double, double>>& durations_for(const Tenant& t, uint32_t gpus) {
  for (const auto& c : t.durations_by_gpus) {
    if (gpus <= c.up_to_gpus) {
      return c.quantiles;
    }
  }
  return t.duration_quantiles;
}

}  // namespace

Status check_spec(const SynthSpec& spec) {
  if (spec.tenants.empty()) {
    return invalid_argument("synth: at least one tenant is needed");
  }
  if (!(spec.mean_interarrival_s > 0) || spec.diurnal_amplitude < 0 || spec.diurnal_amplitude >= 1) {
    return invalid_argument("synth: the mean inter-arrival must be > 0 and the diurnal amplitude in [0, 1)");
  }
  if (spec.jobs > UINT32_MAX - 1) {
    return invalid_argument("synth: at most 4,294,967,294 jobs");
  }
  for (const auto& t : spec.tenants) {
    if (t.gpus.empty() || t.duration_quantiles.size() < 2 || !(t.weight > 0) ||
        t.duration_quantiles.front().first != 0 || t.duration_quantiles.back().first != 1) {
      return invalid_argument("synth: tenant '" + t.name +
                              "' needs a positive weight, GPU counts and duration knots from q=0 to q=1");
    }
    for (const auto& c : t.durations_by_gpus) {
      if (c.quantiles.size() < 2 || c.quantiles.front().first != 0 || c.quantiles.back().first != 1) {
        return invalid_argument("synth: tenant '" + t.name + "': the duration class up to " +
                                std::to_string(c.up_to_gpus) + " GPUs needs knots from q=0 to q=1");
      }
    }
  }
  return Status::ok();
}

Trace synthesize(const SynthSpec& spec) {
  Trace trace;
  Rng rng(spec.seed);
  std::vector<TenantTables> tables;
  std::vector<double> tenant_weights;
  for (const auto& t : spec.tenants) {
    std::vector<double> w;
    for (const auto& [gpus, weight] : t.gpus) {
      w.push_back(weight);
    }
    tables.push_back({trace.symbols.intern(t.name), cumulative(w)});
    tenant_weights.push_back(t.weight);
  }
  const auto tenant_cumulative = cumulative(tenant_weights);
  Arrivals arrivals(spec, rng);
  trace.jobs.reserve(spec.jobs);
  double first = 0;
  for (uint64_t i = 0; i < spec.jobs; ++i) {
    const double at = arrivals.next();
    first = i == 0 ? at : first;
    const size_t k = pick(tenant_cumulative, rng.uniform());
    const Tenant& tenant = spec.tenants[k];
    JobSpec job;
    job.id = JobId(static_cast<uint32_t>(i));
    job.queue = tables[k].queue;
    job.gpus = tenant.gpus[pick(tables[k].gpu_cumulative, rng.uniform())].first;
    job.kind = job.gpus == 0 ? JobKind::kBatch : JobKind::kTraining;
    job.submit = Time::from_micros(std::llround((at - first) * 1e6));
    const double seconds = quantile(durations_for(tenant, job.gpus), rng.uniform());
    job.duration = Duration::seconds(std::max<int64_t>(1, std::llround(seconds)));
    trace.jobs.push_back(job);
  }
  trace.format = "synth";
  return trace;
}

}  // namespace boreas::trace
