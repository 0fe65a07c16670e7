#include "exec_slurm/node_map.h"

#include "slurm/import.h"

namespace boreas::exec_slurm {
namespace {

const slurm::SlurmNode* find(const std::vector<slurm::SlurmNode>& nodes, const std::string& name) {
  for (const auto& n : nodes) {
    if (n.name == name) {
      return &n;
    }
  }
  return nullptr;
}

std::string gpus_text(uint32_t count, const std::string& type) {
  return std::to_string(count) + (count == 0 ? " GPUs" : " " + type + " GPUs");
}

const std::string kFix = "; write the spec from Slurm with `boreas cluster import --slurm --out FILE`";

}  // namespace

Result<NodeMap> map_nodes(const Cluster& spec, const std::vector<slurm::SlurmNode>& nodes,
                          const std::vector<slurm::SlurmSwitch>& switches) {
  auto live = slurm::import_cluster(spec.name, nodes, switches, spec.catalog);
  if (!live.is_ok()) {
    return live.status();
  }
  const std::vector<std::string> names = live->node_names();
  if (names.size() != spec.nodes.size()) {
    return invalid_argument("the cluster spec has " + std::to_string(spec.nodes.size()) +
                            " nodes, Slurm has " + std::to_string(names.size()) + kFix);
  }
  NodeMap map;
  size_t i = 0;
  for (const auto& g : live->groups) {
    for (const auto& slurm_name : g.slurm_nodes) {
      const Node& n = spec.nodes[i++];
      const std::string want = n.gpu_type ? spec.catalog.at(*n.gpu_type).name : "";
      if (n.gpu_count != g.gpus_per_node || (n.gpu_count > 0 && want != g.gpu)) {
        return invalid_argument("node " + std::to_string(i) + " of the spec (" + n.name + ") has " +
                                gpus_text(n.gpu_count, want) + ", but Slurm node " + slurm_name + " has " +
                                gpus_text(g.gpus_per_node, g.gpu) + kFix);
      }
      const slurm::SlurmNode* sn = find(nodes, slurm_name);
      std::string type;
      for (const auto& gres : sn->gres) {
        type = gres.name == "gpu" ? gres.type : type;
      }
      map[n.name] = {slurm_name, type};
    }
  }
  return map;
}

}  // namespace boreas::exec_slurm
