#pragma once
// Structured answers to "why is my job pending?" (docs/multitenancy.md, "Explanations"). A
// scheduler gives them in its plans (policy/plan.h); drivers keep each job's latest in a ReasonBook
// (policy/reason_book.h) and print them in jobs.csv, `boreas sim --explain` and the daemon's API.

#include <cstdint>
#include <string>

#include "core/ids.h"

namespace boreas::policy {

enum class PendingKind : uint8_t {
  kNone,
  kQuotaExceeded,      // a ceiling on the queue's path: queue, GPU type, need, have, guarantee
  kLendingLimit,       // another queue keeps GPUs it may not lend: queue, type, kept, free
  kNoFit,              // quota allows it, but no placement: largest free block vs need
  kBehindHigherPriority,  // no fit, and N higher-ranked jobs of its queue wait too
  kBehindReservation,  // a reservation holds the GPUs (reservation policies)
  kPreemptionCap,      // victims exist but this round's preemption cap is spent
  kGuaranteeOnly,      // preempted too often (or not preemptible): runs only inside its guarantee
  kNeverFits,          // the request exceeds what the cluster or the queue's ceiling could give
};

struct PendingReason {
  PendingKind kind = PendingKind::kNone;
  std::string queue;     // the queue whose quota blocks (may be an ancestor)
  std::string gpu_type;  // the quota entry's type, or "*"
  uint64_t need = 0;     // GPUs the gang needs (or the queue's usage with it)
  uint64_t have = 0;     // GPUs the queue has (or the largest free block, or free GPUs)
  uint64_t guaranteed = 0;
  uint64_t ceiling = 0;  // guarantee + borrow limit (quota), or most GPUs ever possible
  uint32_t ahead = 0;    // higher-ranked pending jobs of the same queue
};

// The reasons most waiting jobs get every round (`no-fit`, `behind-higher-priority`), kept compact
// (24 bytes: plans carry and books hold many): no strings, the queue by the index the plans name it
// with (Reasons::queues), GPU counts in 32 bits as the round's free counts are.
struct NoFitReason {
  PendingKind kind = PendingKind::kNone;  // kNoFit or kBehindHigherPriority
  uint32_t queue = 0;
  uint32_t need = 0;
  uint32_t ahead = 0;
  uint32_t have = 0;
  uint32_t ceiling = 0;
  bool operator==(const NoFitReason&) const = default;
};

// `behind-higher-priority` when `ahead` jobs of its queue ranked before it wait, else `no-fit`.
inline NoFitReason no_fit_reason(uint32_t queue, uint32_t need, uint32_t ahead, uint32_t free,
                                 uint32_t largest_block) {
  if (ahead > 0) {
    return NoFitReason{PendingKind::kBehindHigherPriority, queue, need, ahead, free, 0};
  }
  return NoFitReason{PendingKind::kNoFit, queue, need, ahead, largest_block, free};
}
// The full reason, with the queue's name.
PendingReason expand(const NoFitReason& reason, const std::string& queue);

std::string_view to_string(PendingKind kind);
// One line, e.g. "quota-exceeded: queue a, V100 need 12 have 8 guaranteed 8 ceiling 8".
std::string describe(const PendingReason& reason);

}  // namespace boreas::policy
