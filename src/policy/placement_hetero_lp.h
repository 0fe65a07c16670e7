#pragma once
// The allocation LP of the `hetero` placement, after Gavel's max-min fairness policy (Narayanan et
// al., "Heterogeneity-Aware Cluster Scheduling Policies for Deep Learning Workloads", OSDI 2020,
// §4.1): choose X[j][t], the share of time job j spends on GPU type t, to maximise
// min_j throughput(j, X) / throughput(j, X_equal), solved with GLPK's simplex.
//
// Jobs with the same throughput row and allowed types are merged into one group with their GPUs
// summed: averaging an optimal X over a group's jobs (weighted by GPUs) keeps every constraint
// and does not lower the minimum, so the group LP has the same optimum and stays tiny
// (groups × types variables) however many jobs wait.

#include <cstdint>
#include <vector>

#include "core/status.h"

namespace boreas::policy {

struct LpGroup {
  std::vector<double> rate;  // per GPU type: throughput of one job of the group; 0 = not allowed
  double gpus = 0;           // total GPUs the group's jobs ask for
};

// x[g][t] in [0, 1], Σ_t x[g][t] ≤ 1, Σ_g gpus_g · x[g][t] ≤ capacity[t]. Normalised throughput
// of g = Σ_t rate[t] x[g][t] / equal_g, where equal_g is the rate on the capacity-weighted mix of
// its allowed types (what a type-agnostic placement gives on average). Objective: the minimum
// normalised throughput, plus 1e-3 × their mean so that ties are broken towards efficiency.
Result<std::vector<std::vector<double>>> max_min_allocation(const std::vector<LpGroup>& groups,
                                                            const std::vector<double>& capacity);

}  // namespace boreas::policy
