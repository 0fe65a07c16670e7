#include "slurm/import.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/gpu_match.h"

namespace boreas::slurm {
namespace {

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string s;
  for (const auto& i : items) {
    s += (s.empty() ? "" : sep) + i;
  }
  return s;
}

// The one GPU GRES type of a node as a catalog name; loud when untyped, unknown or mixed.
Result<std::string> catalog_gpu(const SlurmNode& node, const GpuCatalog& catalog) {
  std::vector<std::string> types;
  for (const auto& g : node.gres) {
    if (g.name == "gpu" && g.count > 0 && std::find(types.begin(), types.end(), g.type) == types.end()) {
      types.push_back(g.type);
    }
  }
  if (types.empty()) {
    return std::string();
  }
  const std::string where = "Slurm node " + node.name + ": ";
  if (types.size() > 1) {
    return unsupported(where + "GPUs of several types (" + join(types, ", ") +
                       "); Boreas models one GPU type per node: split the node's GRES in slurm.conf");
  }
  if (types[0].empty()) {
    return invalid_argument(where +
                            "its GRES 'gpu' has no type, so Boreas cannot tell the GPU model; give "
                            "the type in slurm.conf and gres.conf (Gres=gpu:h100:8, Type=h100)");
  }
  const GpuTypeMatch m = match_gpu_type(catalog, types[0]);
  if (!m.id) {
    std::vector<std::string> options;
    for (GpuTypeId c : m.candidates) {
      options.push_back(catalog.at(c).name);
    }
    return invalid_argument(where + "GPU type '" + types[0] + "' " +
                            (options.empty()
                                 ? "is not in the GPU catalog (known: " + join(catalog.names(), ", ")
                                 : "is ambiguous (could be " + join(options, ", ")) +
                            "); rename the GRES type in Slurm or add the type to a gpu_catalog file "
                            "(docs/formats/cluster.md)");
  }
  return catalog.at(*m.id).name;
}

Result<ImportedGroup> shape_of(const SlurmNode& node, const GpuCatalog& catalog) {
  auto gpu = catalog_gpu(node, catalog);
  if (!gpu.is_ok()) {
    return gpu.status();
  }
  if (node.cpus == 0 || node.memory_mib == 0) {
    return invalid_argument("Slurm node " + node.name + " reports " + std::to_string(node.cpus) +
                            " CPUs and " + std::to_string(node.memory_mib) +
                            " MiB memory; set CPUs= and RealMemory= for it in slurm.conf");
  }
  ImportedGroup g;
  g.gpu = *gpu;
  g.gpus_per_node = gpu->empty() ? 0 : gpu_count(node.gres);
  g.cpus = node.cpus;
  g.memory_mib = node.memory_mib;
  g.features = node.features;
  return g;
}

bool same_shape(const ImportedGroup& a, const ImportedGroup& b) {
  return a.gpu == b.gpu && a.gpus_per_node == b.gpus_per_node && a.cpus == b.cpus &&
         a.memory_mib == b.memory_mib && a.features == b.features;
}

// Leaf switches in topology order, then "unswitched" for nodes under none: rack name -> nodes.
std::vector<std::pair<std::string, std::vector<const SlurmNode*>>> racks(
    const std::vector<SlurmNode>& nodes, const std::vector<SlurmSwitch>& switches) {
  std::map<std::string, std::string> leaf_of;
  for (const auto& sw : switches) {
    for (const auto& n : sw.level == 0 ? sw.nodes : std::vector<std::string>{}) {
      leaf_of.emplace(n, sw.name);
    }
  }
  std::vector<std::pair<std::string, std::vector<const SlurmNode*>>> out;
  for (const auto& sw : switches) {
    if (sw.level == 0) {
      out.push_back({sw.name, {}});
    }
  }
  out.push_back({"unswitched", {}});
  for (const auto& n : nodes) {
    const auto it = leaf_of.find(n.name);
    const std::string rack = it == leaf_of.end() ? "unswitched" : it->second;
    std::find_if(out.begin(), out.end(), [&](const auto& r) {
      return r.first == rack;
    })->second.push_back(&n);
  }
  std::erase_if(out, [](const auto& r) { return r.second.empty(); });
  return out;
}

}  // namespace

std::vector<std::string> ImportedCluster::node_names() const {
  std::vector<std::string> names;
  for (const auto& g : groups) {
    names.insert(names.end(), g.slurm_nodes.begin(), g.slurm_nodes.end());
  }
  return names;
}

Result<ImportedCluster> import_cluster(const std::string& name, const std::vector<SlurmNode>& nodes,
                                       const std::vector<SlurmSwitch>& switches, const GpuCatalog& catalog) {
  if (nodes.empty()) {
    return not_found("Slurm reports no nodes (sinfo --json is empty); is this the right SLURM_CONF?");
  }
  ImportedCluster cluster{name, {}};
  for (const auto& [rack, members] : racks(nodes, switches)) {
    size_t first_group = cluster.groups.size();
    for (const SlurmNode* n : members) {
      auto shape = shape_of(*n, catalog);
      if (!shape.is_ok()) {
        return shape.status();
      }
      if (cluster.groups.size() == first_group || !same_shape(cluster.groups.back(), *shape)) {
        const size_t k = cluster.groups.size() - first_group;
        shape->name = k == 0 ? rack : rack + "-" + std::to_string(k + 1);
        cluster.groups.push_back(std::move(*shape));
      }
      cluster.groups.back().slurm_nodes.push_back(n->name);
    }
  }
  return cluster;
}

std::string to_yaml(const ImportedCluster& cluster) {
  std::string y =
      "# Written by `boreas cluster import --slurm` from the live Slurm cluster.\n"
      "# One rack per leaf switch (topology/tree); the comment above each group lists\n"
      "# its Slurm nodes in Boreas node order. Re-import when slurm.conf changes.\n";
  y += "name: " + cluster.name + "\ngroups:\n";
  for (const auto& g : cluster.groups) {
    char mem[32];
    std::snprintf(mem, sizeof(mem), "%.10g", static_cast<double>(g.memory_mib) / 1024.0);
    y += "  # slurm nodes: " + join(g.slurm_nodes, ",") + "\n";
    if (!g.features.empty()) {
      y += "  # slurm features: " + join(g.features, ",") + "\n";
    }
    y += "  - {name: " + g.name + ", count: " + std::to_string(g.slurm_nodes.size());
    if (g.gpus_per_node > 0) {
      y += ", gpu: " + g.gpu;
    }
    y += ", gpus_per_node: " + std::to_string(g.gpus_per_node) +
         ", nodes_per_rack: " + std::to_string(g.slurm_nodes.size()) + ", cpus: " + std::to_string(g.cpus) +
         ", memory_gib: " + mem + "}\n";
  }
  return y;
}

}  // namespace boreas::slurm
