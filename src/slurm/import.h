#pragma once
// A Boreas cluster spec (docs/formats/cluster.md) written from what a live Slurm reports:
// `boreas cluster import --slurm`. Every leaf switch of topology/tree becomes a rack; nodes under
// no leaf form one rack of their own. Inside a rack, each run of nodes of one shape (GPU type and
// count, CPUs, memory) is a node group. Slurm's GRES type names are matched to catalog types.

#include <string>
#include <vector>

#include "core/gpu.h"
#include "core/status.h"
#include "slurm/state.h"
#include "slurm/topology.h"

namespace boreas::slurm {

struct ImportedGroup {
  std::string name;  // the leaf switch, "-2", "-3" ... for a second shape under it
  std::string gpu;   // catalog name; empty for CPU-only nodes
  uint32_t gpus_per_node = 0;
  uint32_t cpus = 0;
  uint64_t memory_mib = 0;
  std::vector<std::string> slurm_nodes;  // Slurm's names, in Boreas node order
  std::vector<std::string> features;     // shared by every node of the group
};

struct ImportedCluster {
  std::string name;
  std::vector<ImportedGroup> groups;
  // Slurm's node name for every Boreas node, in Boreas node order (node index -> Slurm name).
  std::vector<std::string> node_names() const;
};

Result<ImportedCluster> import_cluster(const std::string& name, const std::vector<SlurmNode>& nodes,
                                       const std::vector<SlurmSwitch>& switches, const GpuCatalog& catalog);

// The spec as YAML, with comments naming the Slurm nodes and features of each group.
std::string to_yaml(const ImportedCluster& cluster);

}  // namespace boreas::slurm
