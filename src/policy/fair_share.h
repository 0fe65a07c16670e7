#pragma once
// The fair-share part: dominant-resource fairness across queues, with each GPU type a resource
// weighted by its value, and usage that decays with a half-life (Slurm's fair-share factor in
// spirit). share(q) = max over types t of  w_t · D_q,t / (Σ_t' w_t' · C_t')  / weight(q), where
// D_q,t is q's decayed GPU-seconds of type t; lower shares go first.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/time.h"
#include "core/topology.h"
#include "policy/quota.h"

namespace boreas::policy {

struct FairShareOptions {
  // Slurm's default PriorityDecayHalfLife; 0 = usage never decays.
  Duration half_life = Duration::seconds(7 * 24 * 3600);
  // Value per GPU-second by type name; types not listed use dense BF16 TFLOPS from the catalog.
  std::map<std::string, double> type_values;
};

class FairShare {
 public:
  FairShare(const Cluster& cluster, FairShareOptions options);

  // Decays every queue's usage to `now`, then adds `held[q][t]` GPUs held since the last call.
  void advance(Time now, const std::vector<std::vector<uint32_t>>& held);
  // The queue's weighted dominant share (0 = no recent usage).
  double share(uint32_t queue, double weight) const;
  double value(GpuTypeId type) const { return values_[type.value()]; }

 private:
  FairShareOptions options_;
  std::vector<double> values_;  // by GPU type id
  double total_value_ = 0;      // Σ value × capacity, per second
  std::vector<size_t> present_;  // the GPU types the cluster has, by id
  std::vector<std::vector<double>> decayed_;  // [queue][type] value-weighted GPU-seconds
  Time last_ = Time::never();
};

}  // namespace boreas::policy
