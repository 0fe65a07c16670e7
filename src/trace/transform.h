#pragma once
// Subsets of a trace for `boreas trace convert`: a filter by time window, queue and GPU count,
// and a seeded uniform sample. Results keep the Trace guarantees (sorted, dense ids, first at 0).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "trace/trace.h"

namespace boreas::trace {

struct Filter {
  std::optional<Time> from;  // keep jobs submitted at or after (relative to the trace start)
  std::optional<Time> to;    // ... and strictly before
  std::vector<std::string> queues;  // empty = all
  uint32_t min_gpus = 0;
  uint32_t max_gpus = UINT32_MAX;
};

// "from=1d,to=8d,queue=a|b,gpus=1-8" (times: a number of seconds or with s/min/h/d; gpus: N or
// LO-HI). Each key is optional.
Result<Filter> parse_filter(const std::string& spec);
void apply_filter(Trace& trace, const Filter& filter);
// Keeps `n` jobs chosen uniformly without replacement (all when n >= size), in trace order.
void apply_sample(Trace& trace, uint64_t n, uint64_t seed);
// Keeps `n` consecutive jobs (in submit order) from a start drawn uniformly from `seed`, so a
// sample keeps the trace's burstiness; all jobs when n >= size.
void apply_slice(Trace& trace, uint64_t n, uint64_t seed);

// Offered load: the GPU-time the trace asks for inside its arrival window (first to last submit),
// each job counted as if it ran from its submit at full speed and clipped at the window's end,
// over what `capacity_gpus` reference GPUs can do in that window. Clipping keeps one job much
// longer than the window from standing in for the load of all the others (a heavy-tailed slice
// would otherwise read 0.9 with the rest of the cluster idle). 0 when the trace spans no time or
// the capacity is 0. (trace stats' offered_load is the unclipped total over the same window.)
double offered_load(const Trace& trace, double capacity_gpus);
// Multiplies every gap between submits by `factor` (> 0), keeping the job mix; submits are
// rounded to whole microseconds, so order is kept.
void scale_arrivals(Trace& trace, double factor);
// Scales arrivals so that offered_load(trace, capacity_gpus) is `target` (found by bisection:
// the clipped load falls as the window stretches); fails when the trace spans no time or the
// target cannot be reached.
Status set_offered_load(Trace& trace, double capacity_gpus, double target);

// Removes the jobs whose ids are listed (any order).
void remove_jobs(Trace& trace, const std::vector<JobId>& ids);

}  // namespace boreas::trace
