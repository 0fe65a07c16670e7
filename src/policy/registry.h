#pragma once
// Policies and placements by name. An explicit object, filled by whoever builds it (no static
// registration): duplicates are rejected, unknown names are answered with the known ones.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "policy/placement.h"
#include "policy/placement_cool.h"
#include "policy/placement_hetero.h"
#include "policy/placement_topo.h"
#include "policy/scheduler.h"
#include "policy/service_orders.h"
#include "policy/tenancy.h"

namespace boreas::policy {

struct PolicyOptions {
  std::string placement = "count";
  double time_limit_factor = 1.0;  // easy-backfill: assumed limit = factor × duration if none given
  ServiceOptions service;          // las, gittins
  TenancyOptions tenancy;          // boreas: queue tree, fair share, preemption
  TopoOptions topo;                // placement topo
  CoolOptions cool;                // placement cool
  HeteroOptions hetero;            // placement hetero
};

using PlacementFactory = std::function<std::unique_ptr<Placement>(const PolicyOptions&)>;
using SchedulerFactory =
    std::function<std::unique_ptr<Scheduler>(const PolicyOptions&, std::unique_ptr<Placement>)>;

class PolicyRegistry {
 public:
  Status add_policy(const std::string& name, std::string description, SchedulerFactory factory);
  Status add_placement(const std::string& name, std::string description, PlacementFactory factory);

  Result<std::unique_ptr<Scheduler>> make(const std::string& policy, const PolicyOptions& options) const;
  // Checks a policy name without building it.
  Status check_policy(const std::string& policy) const;
  Status check_placement(const std::string& placement) const;
  std::vector<std::string> policy_names() const;
  std::vector<std::string> placement_names() const;
  const std::string& description(const std::string& policy) const { return policies_.at(policy).description; }

 private:
  struct PolicyEntry {
    std::string description;
    SchedulerFactory factory;
  };
  struct PlacementEntry {
    std::string description;
    PlacementFactory factory;
  };
  std::map<std::string, PolicyEntry> policies_;
  std::map<std::string, PlacementEntry> placements_;
};

// fifo, fjf, easy-backfill, srtf, srtf-gpu, las, gittins; count, first-fit, pack, consolidated,
// and the physics-aware topo, hetero, cool.
void register_baseline(PolicyRegistry& registry);

}  // namespace boreas::policy
