#pragma once
// Properties a trace may not record, set for a run: a seeded mix of model classes (--job-classes)
// and the checkpoint interval (--checkpoint-interval). Jobs whose trace gives them a class or an
// interval keep their own.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "models/throughput.h"
#include "trace/trace.h"

namespace boreas::cli {

struct ClassShare {
  std::string name;  // a class of the throughput model (docs/models.md)
  double share = 0;  // of the jobs, (0, 1]; the shares of a mix sum to 1
};

// "transformer-training=0.4,llm-inference=0.2,..." → the mix; every name must be a class of
// `params` and the shares must sum to 1.
Result<std::vector<ClassShare>> parse_job_classes(std::string_view list,
                                                  const models::ThroughputParams& params);

// Gives each job without a class one drawn from `mix`, independently per job, from a generator
// seeded by `seed` (the same seed and trace give the same classes).
void assign_job_classes(trace::Trace& trace, const std::vector<ClassShare>& mix, uint64_t seed);

// "model" (each job's Young interval, physics.cpp), "none" (no periodic writes: a failure loses the
// whole run) or seconds > 0. Returns the interval to set (zero for "model").
Result<Duration> parse_checkpoint_interval(std::string_view text);

// Sets `interval` on every job whose trace gives none; zero changes nothing.
void set_checkpoint_interval(trace::Trace& trace, Duration interval);

}  // namespace boreas::cli
