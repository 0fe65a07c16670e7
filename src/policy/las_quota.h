#pragma once
// las-quota: Tiresias' 2D-LAS over the whole cluster, with each queue's guarantee served first.
// Every round, each queue's jobs (running and waiting) are taken in LAS order and those that fit
// in its guarantee (on every level of its path, QuotaBook::within_guarantee) form the owed tier;
// the rest follow in LAS order. The preemptive walk of PriorityScheduler then gives owed jobs their
// GPUs first, reclaiming them from borrowers, and ranks all other work as LAS does. A job at the
// preemption cap (`--max-preemptions`) that is not owed ranks between the two tiers: only a
// guarantee can take its GPUs back. No ceilings, lending limits or priority classes (the `boreas`
// policy has them); docs/policies.md.

#include <memory>

#include "policy/priority_scheduler.h"
#include "policy/service_orders.h"
#include "policy/tenancy.h"

namespace boreas::policy {

// `kept` = false: the plain path (every round re-reads and sorts every active job and re-keys
// every waiting job when a tier changed), for the property test that compares the two.
std::unique_ptr<PriorityOrder> make_las_quota_order(ServiceOptions service, const TenancyOptions& tenancy,
                                                    bool kept = true);

}  // namespace boreas::policy
