#pragma once
// Switches from `scontrol show topology` (topology/tree), one line per switch:
//   SwitchName=leaf1 Level=0 LinkSpeed=1 Nodes=n[1-2]
//   SwitchName=spine Level=1 LinkSpeed=1 Nodes=n[1-4] Switches=leaf[1-2]

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace boreas::slurm {

struct SlurmSwitch {
  std::string name;
  uint32_t level = 0;                 // 0 = leaf
  std::vector<std::string> nodes;     // every node below it (expanded)
  std::vector<std::string> switches;  // its child switches
};

// Empty text (no topology plugin) -> no switches.
Result<std::vector<SlurmSwitch>> parse_topology(std::string_view text);

}  // namespace boreas::slurm
