#pragma once
// What a scheduler decides in one round. The driver (simulator or daemon) applies preemptions
// first, then starts, through ClusterState only.
//
// A plan also carries why jobs wait: the reasons the policy gave this round that changed, never
// every waiting job's. A driver keeps each job's latest reason in a ReasonBook
// (policy/reason_book.h) and applies every plan's `reasons` to it, in order; what the book holds is
// what the policy last said for each job (kNone where it never said).
//
// Most waiting jobs get a no-fit reason every round, and in a *quiet* round (the `boreas` policy's
// rounds in which nothing can start, boreas_quiet.cpp) every ranked job gets one: no-fit or
// behind-higher-priority by its count of jobs of its queue ranked before it (`ahead`), with the
// round's free GPUs. Only the free GPUs change from one quiet round to the next for most jobs, so a
// quiet round does not list them: it names a span (consecutive quiet rounds) and gives the span's
// free GPUs; `placed` lists only the jobs whose place (queue, gang size, ahead) the book does not
// already hold for this span (all ranked jobs in a span's first round, afterwards the arrivals and
// the jobs behind them). Every job placed in the span takes the span's latest free GPUs, until a
// later entry of `jobs` for it (the policy writes one when a job leaves its queue's order during
// the span, with the free GPUs it waited with last) or a new span. A span ends with the first round
// that is not quiet; its jobs keep the span's last free GPUs, as they were when last ranked.

#include <optional>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/time.h"
#include "policy/explain.h"

namespace boreas::policy {

struct Start {
  JobId job;
  std::vector<GpuId> gpus;
};

// One job's reason: compact when `no_fit.kind` is set, else the next unread entry of Reasons::exact.
struct JobReason {
  JobId job;
  NoFitReason no_fit;
};

// A job ranked in a quiet round whose place the book does not hold yet for the span.
struct QuietPlace {
  JobId job;
  uint32_t queue = 0;  // as in NoFitReason
  uint32_t need = 0;
  uint32_t ahead = 0;
};

struct QuietReasons {
  bool new_span = false;   // the round before was not quiet
  uint32_t free = 0;       // the round's free GPUs
  uint32_t largest_block = 0;  // and most free on one node
  std::vector<QuietPlace> placed;
};

struct Reasons {
  std::vector<std::string> queues;  // names of the queue indexes after those earlier plans named
  std::vector<JobReason> jobs;      // in order: a later entry for a job replaces an earlier one
  std::vector<PendingReason> exact;
  std::optional<QuietReasons> quiet;  // applied after `jobs`
};

struct Plan {
  std::vector<JobId> preemptions;
  std::vector<Start> starts;
  std::optional<Time> wake_at;  // ask to be called again then, even if nothing else happens
  Reasons reasons;
  // Later issues add resizes and migrations here.
};

}  // namespace boreas::policy
