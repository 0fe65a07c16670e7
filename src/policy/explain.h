#pragma once
// Structured answers to "why is my job pending?" (docs/multitenancy.md, "Explanations"). A
// scheduler records one per pending job per round; drivers print them in jobs.csv and
// `boreas sim --explain`.

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

std::string_view to_string(PendingKind kind);
// One line, e.g. "quota-exceeded: queue a, V100 need 12 have 8 guaranteed 8 ceiling 8".
std::string describe(const PendingReason& reason);

}  // namespace boreas::policy
