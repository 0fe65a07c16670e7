#pragma once
// Which Slurm node each node of the Boreas cluster spec is, checked against the live Slurm:
// `boreas serve --executor slurm` refuses a spec that disagrees with Slurm and says where.
// The spec's node order is the order `boreas cluster import --slurm` writes (slurm/import.h).

#include <string>
#include <unordered_map>
#include <vector>

#include "core/status.h"
#include "core/topology.h"
#include "slurm/state.h"
#include "slurm/topology.h"

namespace boreas::exec_slurm {

struct SlurmNodeRef {
  std::string name;       // Slurm's node name
  std::string gres_type;  // Slurm's GPU GRES type ("h100"), for --gres=gpu:TYPE:N
};

using NodeMap = std::unordered_map<std::string, SlurmNodeRef>;  // spec node name -> Slurm node

Result<NodeMap> map_nodes(const Cluster& spec, const std::vector<slurm::SlurmNode>& nodes,
                          const std::vector<slurm::SlurmSwitch>& switches);

}  // namespace boreas::exec_slurm
