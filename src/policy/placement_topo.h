#pragma once
// `topo`: a gang in the tightest network domain that fits — one node, then one leaf switch, then
// one spine, then anywhere — chosen by the communication model (models/comm.h). When the best
// placement it can find now is clearly worse than the tightest one the gang could get, it waits for
// a better domain as long as the wait costs less than the slowdown it avoids (docs/policies.md, "topo").

#include <memory>

#include "core/time.h"
#include "models/comm.h"
#include "policy/placement.h"

namespace boreas::policy {

struct TopoOptions {
  // A gang whose best placement now is below `min_efficiency` waits for a better one while the
  // wait (since it became pending) is shorter than the slowdown it avoids — its expected run × (1 /
  // efficiency − 1) — and than max_wait; then it takes the best placement there is. 0 = never wait.
  Duration max_wait = Duration::hours(24);
  double min_efficiency = 0.95;  // placement efficiency (models::placement_efficiency) deemed good
  // The job the comm model scores when the trace says nothing: 2 GB of gradients per step, 0.5 s
  // of compute, half the communication hidden (the docs/models.md "gang split across racks" case).
  double gradient_bytes = 2e9;
  double compute_s = 0.5;
  double overlap = 0.5;
  models::CommParams comm;
  // false: every gang no single node holds runs the domain search, without the bound that refuses
  // one whose every spread shape would wait (tests compare the two).
  bool shortcuts = true;
};

Status validate(const TopoOptions& o);
std::unique_ptr<Placement> make_topo_placement(const TopoOptions& options);

}  // namespace boreas::policy
