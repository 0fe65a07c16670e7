#include "policy/registry.h"

#include <utility>

#include "policy/boreas_policy.h"
#include "policy/las_quota.h"
#include "policy/placement_frag.h"
#include "policy/placement_spot.h"
#include "policy/priority_scheduler.h"
#include "policy/queue_scheduler.h"

namespace boreas::policy {

namespace {
template <typename Map>
std::string known(const Map& map) {
  std::string out;
  for (const auto& [name, entry] : map) {
    out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}
}  // namespace

Status PolicyRegistry::add_policy(const std::string& name, std::string description,
                                  SchedulerFactory factory) {
  if (!policies_.emplace(name, PolicyEntry{std::move(description), std::move(factory)}).second) {
    return conflict("policy '" + name + "' is registered twice");
  }
  return Status::ok();
}

Status PolicyRegistry::add_placement(const std::string& name, std::string description,
                                     PlacementFactory factory) {
  if (!placements_.emplace(name, PlacementEntry{std::move(description), std::move(factory)}).second) {
    return conflict("placement '" + name + "' is registered twice");
  }
  return Status::ok();
}

Status PolicyRegistry::check_policy(const std::string& policy) const {
  if (policies_.count(policy) == 0) {
    return not_found("unknown policy '" + policy + "'; known policies: " + known(policies_));
  }
  return Status::ok();
}

Status PolicyRegistry::check_placement(const std::string& placement) const {
  if (placements_.count(placement) == 0) {
    return not_found("unknown placement '" + placement + "'; known placements: " + known(placements_));
  }
  return Status::ok();
}

Result<std::unique_ptr<Scheduler>> PolicyRegistry::make(const std::string& policy,
                                                        const PolicyOptions& options) const {
  BOREAS_RETURN_IF_ERROR(check_policy(policy));
  BOREAS_RETURN_IF_ERROR(check_placement(options.placement));
  return policies_.at(policy).factory(options,
                                      with_spot_preference(placements_.at(options.placement).factory(options)));
}

std::vector<std::string> PolicyRegistry::policy_names() const {
  std::vector<std::string> out;
  for (const auto& [name, entry] : policies_) {
    out.push_back(name);
  }
  return out;
}

std::vector<std::string> PolicyRegistry::placement_names() const {
  std::vector<std::string> out;
  for (const auto& [name, entry] : placements_) {
    out.push_back(name);
  }
  return out;
}

namespace {

SchedulerFactory queue_policy(std::string name, Blocking blocking) {
  return
      [name, blocking](const PolicyOptions& o, std::unique_ptr<Placement> p) -> std::unique_ptr<Scheduler> {
        return std::make_unique<QueueScheduler>(name, blocking, std::move(p), std::make_unique<AdmitAll>(),
                                                o.time_limit_factor);
      };
}

// `capped`: the scheduler keeps a job at --max-preemptions running (an order that ranks capped jobs
// itself, as las-quota does, passes false).
template <typename MakeOrder>
SchedulerFactory priority_policy(std::string name, MakeOrder make_order, bool capped = true) {
  return [name, make_order, capped](const PolicyOptions& o,
                                    std::unique_ptr<Placement> p) -> std::unique_ptr<Scheduler> {
    return std::make_unique<PriorityScheduler>(name, make_order(o), std::move(p), std::make_unique<AdmitAll>(),
                                               capped ? o.service.max_preemptions : 0);
  };
}

void register_policies(PolicyRegistry& r) {
  (void)r.add_policy("fifo", "strict FIFO, head-of-line blocking", queue_policy("fifo", Blocking::kStrict));
  (void)r.add_policy("fjf", "first-fit FIFO, no reservation", queue_policy("fjf", Blocking::kSkip));
  (void)r.add_policy("easy-backfill", "EASY backfilling with a reservation for the head job",
                     queue_policy("easy-backfill", Blocking::kBackfill));
  (void)r.add_policy("srtf", "oracle preemptive shortest remaining time",
                     priority_policy("srtf", [](const PolicyOptions&) { return make_srtf_order(); }));
  (void)r.add_policy("srtf-gpu", "oracle preemptive shortest remaining GPU-time",
                     priority_policy("srtf-gpu", [](const PolicyOptions&) { return make_srtf_gpu_order(); }));
  (void)r.add_policy(
      "las", "Tiresias discretized 2D-LAS on attained GPU-seconds",
      priority_policy("las", [](const PolicyOptions& o) { return make_las_order(o.service); }));
  (void)r.add_policy(
      "gittins", "Tiresias 2D-Gittins index, distribution learned online",
      priority_policy("gittins", [](const PolicyOptions& o) { return make_gittins_order(o.service); }));
  (void)r.add_policy("las-quota", "2D-LAS over the cluster, each queue's guarantee served first (no ceilings or classes)",
                     priority_policy(
                         "las-quota",
                         [](const PolicyOptions& o) { return make_las_quota_order(o.service, o.tenancy); },
                         /*capped=*/false));
  (void)r.add_policy("boreas", "quotas with borrowing, priority classes, LAS, fair share, safe preemption",
                     [](const PolicyOptions& o, std::unique_ptr<Placement> p) {
                       return make_boreas_scheduler(o.tenancy, std::move(p));
                     });
}

// Placements that take no options.
PlacementFactory plain(std::unique_ptr<Placement> (*make)()) {
  return [make](const PolicyOptions&) { return make(); };
}

void register_placements(PolicyRegistry& r) {
  (void)r.add_placement("count", "any free GPUs (as published simulators)", plain(make_count_placement));
  (void)r.add_placement("first-fit", "lowest-numbered node with room", plain(make_first_fit_placement));
  (void)r.add_placement("pack", "best fit: one node, else fewest nodes in one rack", plain(make_pack_placement));
  (void)r.add_placement("frag", "FGD's fragmentation gradient over the job sizes seen so far; else pack",
                        plain(make_frag_placement));
  (void)r.add_placement("consolidated", "one node, or whole nodes under one switch",
                        plain(make_consolidated_placement));
  (void)r.add_placement("topo", "tightest network domain by the comm model; waits a bounded time for it",
                        [](const PolicyOptions& o) { return make_topo_placement(o.topo); });
  (void)r.add_placement("cool", "long jobs to liquid zones; air racks under their cooling limit, caps kept",
                        [](const PolicyOptions& o) { return make_cool_placement(o.cool); });
  (void)r.add_placement("hetero", "Gavel-style max-min LP over job class x GPU type throughput (GLPK)",
                        [](const PolicyOptions& o) { return make_hetero_placement(o.hetero); });
}

}  // namespace

void register_baseline(PolicyRegistry& r) {
  register_policies(r);
  register_placements(r);
}

}  // namespace boreas::policy
