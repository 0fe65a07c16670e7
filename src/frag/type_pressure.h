#pragma once
// How hard the type-restricted pods of the target workload press on each GPU type
// (docs/fragmentation.md, "Beating FGD"): a pod that accepts any GPU but lands on a type that
// restricted pods will need takes GPUs they cannot find elsewhere. The pressure of a type is the
// GPU demand of the classes restricted to it (spread over their allowed types by capacity) per GPU
// of the type, when the arrived demand equals the capacity; capped at 1 (every GPU of the type
// will be wanted).

#include <array>
#include <vector>

#include "frag/fragmentation.h"
#include "frag/model.h"

namespace boreas::frag {

struct TypePressure {
  std::array<double, kTypeBits> pressure{};  // by GPU type bit, 0..1
  std::array<double, kTypeBits> restricted{};  // restricted demand (milli) at 100 % arrived, by type
  double capacity = 0;                  // milli-GPU in the cluster
  TypeMask present = 0;                 // types with at least one GPU in the cluster
};

TypePressure type_pressure(const std::vector<TaskClass>& mix, const std::vector<Node>& nodes);

// The pressure now: the restricted demand still to come until 100 % arrived (`arrived_milli` so
// far) per idle milli-GPU of each type, capped at 1.
TypePressure pressure_now(const TypePressure& base, const std::vector<Node>& nodes, double arrived_milli);

// Restricted GPU demand (milli) that `p` displaces by taking its GPUs on `n`: its GPU milli times
// how much more the node's type is pressed than the least pressed type `p` accepts. 0 for CPU pods,
// and for a pod on the least pressed type it can use.
double displaced_milli(const PodShape& p, const Node& n, const TypePressure& tp);

}  // namespace boreas::frag
