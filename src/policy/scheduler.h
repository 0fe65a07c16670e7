#pragma once
// The one interface every policy implements. A scheduler reads a ClusterView and returns a Plan;
// it reads no clock, file or socket. It may keep its own state between rounds (e.g. attained
// service levels); a driver calls it on arrivals, completions and requested wake-ups. Why jobs wait
// comes with the plans (plan.h), never asked for afterwards.

#include <string_view>

#include "policy/plan.h"
#include "state/cluster_view.h"

namespace boreas::policy {

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view placement_name() const = 0;
  virtual Plan schedule(const state::ClusterView& view) = 0;
};

// The admission part: may a job be considered now at all (quotas, limits — issue 6)?
class Admission {
 public:
  virtual ~Admission() = default;
  virtual bool admit(JobId job, const state::ClusterView& view) = 0;
};

class AdmitAll final : public Admission {
 public:
  bool admit(JobId, const state::ClusterView&) override { return true; }
};

}  // namespace boreas::policy
