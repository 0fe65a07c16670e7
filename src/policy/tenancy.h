#pragma once
// Options of the multi-tenancy parts (quota, fair share, preemption) and of the `boreas` policy.

#include <memory>

#include "core/queue.h"
#include "policy/fair_share.h"
#include "policy/preemption.h"

namespace boreas::policy {

struct TenancyOptions {
  std::shared_ptr<const QueueTree> queues;  // null: every queue unlimited, no guarantees
  FairShareOptions fair_share;
  PreemptionOptions preemption;
};

}  // namespace boreas::policy
