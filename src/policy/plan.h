#pragma once
// What a scheduler decides in one round. The driver (simulator or daemon) applies preemptions
// first, then starts, through ClusterState only.
//
// A plan also carries why jobs wait: the reasons the policy gave this round that changed, never
// every waiting job's. A driver keeps each job's latest reason in a ReasonBook
// (policy/reason_book.h) and applies every plan's `reasons` to it, in order; what the book holds is
// what the policy last said for each job (kNone where it never said).
//
// Most waiting jobs get a no-fit reason every round: `no-fit` or `behind-higher-priority` by their
// count of jobs of their queue ranked before them (`ahead`), with the round's free GPUs. The `boreas`
// policy gives one to every ranked job in a *quiet* round (nothing can start, boreas_quiet.cpp) and to
// every job its full round's pass did not reach, and from one such round to the next, for most jobs,
// only the free GPUs change. So these jobs form a *shared* set: the book holds each one's place
// (queue, gang size, ahead) once, and a plan gives the set's free GPUs (`shared`) and lists only the
// places the book does not hold already (the set's new jobs and those whose count moved). Every job
// in the set takes the latest free GPUs, until a later entry of `jobs` for it takes it out: the
// policy writes one when a job of the set gets another reason, starts, or leaves its queue's order
// (then with the free GPUs it last waited with). A round that starts jobs of a queue lowers the
// count of every member of the set of that queue by the number started (`lowered`), rather than
// listing each one's new place: every start is ranked before them.

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

// A job of the shared set whose place the book does not hold yet.
struct SharedPlace {
  JobId job;
  uint32_t queue = 0;  // as in NoFitReason
  uint32_t need = 0;
  uint32_t ahead = 0;
};

// Every member of the shared set in `queue` has `by` fewer jobs ahead.
struct SharedLowered {
  uint32_t queue = 0;
  uint32_t by = 0;
};

struct SharedReasons {
  bool new_span = false;   // the set starts over: the book's earlier members keep their places
  uint32_t free = 0;       // the round's free GPUs
  uint32_t largest_block = 0;  // and most free on one node
  std::vector<SharedLowered> lowered;  // applied before `placed`
  std::vector<SharedPlace> placed;
};

struct Reasons {
  std::vector<std::string> queues;  // names of the queue indexes after those earlier plans named
  std::vector<JobReason> jobs;      // in order: a later entry for a job replaces an earlier one
  std::vector<PendingReason> exact;
  std::optional<SharedReasons> shared;  // applied after `jobs`
};

struct Plan {
  std::vector<JobId> preemptions;
  std::vector<Start> starts;
  std::optional<Time> wake_at;  // ask to be called again then, even if nothing else happens
  Reasons reasons;
  // Later issues add resizes and migrations here.
};

}  // namespace boreas::policy
