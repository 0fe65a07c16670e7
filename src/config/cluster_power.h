#pragma once
// The IT power envelope of a node: what its rack must feed and cool at full load.

#include "core/topology.h"

namespace boreas::config {

// Non-GPU draw of a node (CPUs, memory, fans, NICs, NVSwitch): 500 W per node plus 200 W per GPU.
// For an 8x H100 HGX node this gives 5.6 + 2.1 = 7.7 kW, i.e. the ~76% of its 10.2 kW rating that
// FACTS §3.1 (T7) reports as the training peak. Documented in docs/formats/cluster.md.
inline constexpr double kNodeBaseW = 500;
inline constexpr double kNodeBasePerGpuW = 200;

// Σ GPU TDP + base draw, in watts.
double node_power_envelope_w(const Node& node, const GpuCatalog& catalog);

}  // namespace boreas::config
