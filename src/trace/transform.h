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
// Removes the jobs whose ids are listed (any order).
void remove_jobs(Trace& trace, const std::vector<JobId>& ids);

}  // namespace boreas::trace
