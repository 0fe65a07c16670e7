#pragma once
// A seeded generator of realistic workloads (`boreas trace synth`): Poisson or diurnal arrivals,
// heavy-tailed durations, per-tenant GPU-count mixes; presets fitted to the bundled traces.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "trace/trace.h"

namespace boreas::trace {

enum class ArrivalKind { kPoisson, kDiurnal };

struct Tenant {
  std::string name;  // becomes the queue
  double weight = 1;  // share of jobs (relative)
  std::vector<std::pair<uint32_t, double>> gpus;  // GPU count → relative weight
  // Duration quantile function: (q, seconds) knots with q from 0 to 1; ln(duration) is
  // interpolated linearly between knots, so the published percentiles are met exactly and the
  // tail is as heavy as the data's.
  std::vector<std::pair<double, double>> duration_quantiles;
  // Optional: durations that depend on the GPU count (in Philly a median 1-GPU job runs 19 min, an
  // 8-GPU one 6.6 h). A job uses the first class whose `up_to_gpus` ≥ its count, else the
  // quantiles above.
  struct DurationClass {
    uint32_t up_to_gpus = 0;
    std::vector<std::pair<double, double>> quantiles;
  };
  std::vector<DurationClass> durations_by_gpus;
};

struct SynthSpec {
  uint64_t jobs = 1000;
  uint64_t seed = 1;
  ArrivalKind arrival = ArrivalKind::kPoisson;
  double mean_interarrival_s = 60;
  double diurnal_amplitude = 0.5;  // rate = mean × (1 + a·sin(2π·t/day)), so ±50% by default
  std::vector<Tenant> tenants;
};

// "philly" or "helios" (fitted to their SOURCE.md statistics; see docs/formats/synth.md).
Result<SynthSpec> synth_preset(std::string_view name);
Status check_spec(const SynthSpec& spec);
// Same spec → same jobs, bit for bit (mt19937_64 and hand-written distributions).
Trace synthesize(const SynthSpec& spec);

}  // namespace boreas::trace
