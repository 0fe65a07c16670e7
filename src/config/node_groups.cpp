#include "config/node_groups.h"

#include <algorithm>
#include <cmath>

#include "config/cluster_power.h"
#include "config/suggest.h"

namespace boreas::config {
namespace {

struct Group {
  std::string name;
  int64_t count = 0;
  int64_t gpus_per_node = 0;
  std::optional<GpuTypeId> gpu;
  bool nvlink = false;
  int64_t nodes_per_rack = 0;
  ZoneId zone;
  double cpus = 0;
  double memory_gib = 0;
  double rack_power_kw = 0;
  double rack_cooling_kw = 0;
};

std::string padded(int64_t i, int64_t largest) {
  std::string s = std::to_string(i);
  const size_t width = std::max<size_t>(2, std::to_string(largest).size());
  return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
}

std::vector<std::string> zone_names(const Cluster& c) {
  std::vector<std::string> out;
  for (const auto& z : c.zones) {
    out.push_back(z.name);
  }
  return out;
}

Status read_gpu(const MapReader& g, const GpuCatalog& catalog, Group* out) {
  BOREAS_RETURN_IF_ERROR(g.count("gpus_per_node", &out->gpus_per_node, true, true));
  if (out->gpus_per_node > kMaxGpusPerNode) {
    return g.ctx().error(
        g.get("gpus_per_node"),
        "'gpus_per_node' in " + g.what() + " is " + std::to_string(out->gpus_per_node) + ", above the limit",
        "use at most " + std::to_string(kMaxGpusPerNode));
  }
  std::string type;
  BOREAS_RETURN_IF_ERROR(g.text("gpu", &type));
  if (out->gpus_per_node == 0) {
    if (!type.empty()) {
      return g.ctx().error(g.get("gpu"), g.what() + " names GPU type '" + type + "' but has gpus_per_node 0",
                           "remove 'gpu' for CPU-only nodes, or set gpus_per_node above 0");
    }
    return Status::ok();
  }
  if (type.empty()) {
    return g.ctx().error(
        g.node(),
        g.what() + " has " + std::to_string(out->gpus_per_node) + " GPUs per node but no 'gpu' type",
        "add 'gpu: <type>'; known types: " + join(catalog.names()));
  }
  out->gpu = catalog.find(type);
  if (!out->gpu) {
    const std::string hint = did_you_mean(type, catalog.names());
    return g.ctx().error(g.get("gpu"), "unknown GPU type '" + type + "' in " + g.what(),
                         (hint.empty() ? "" : hint + " ") + "known types: " + join(catalog.names()) +
                             " (add your own with 'gpu_catalog:')");
  }
  out->nvlink = catalog.at(*out->gpu).nvlink_gbps > 0 && out->gpus_per_node > 1;
  return g.boolean("nvlink", &out->nvlink);
}

Status read_zone(const MapReader& g, const Cluster& cluster, Group* out) {
  std::string zone;
  BOREAS_RETURN_IF_ERROR(g.text("zone", &zone));
  if (zone.empty()) {
    if (cluster.zones.size() != 1) {
      return g.ctx().error(g.node(), g.what() + " is missing required key 'zone'",
                           "add 'zone: <name>'; zones: " + join(zone_names(cluster)));
    }
    out->zone = ZoneId(0);
    return Status::ok();
  }
  for (size_t i = 0; i < cluster.zones.size(); ++i) {
    if (cluster.zones[i].name == zone) {
      out->zone = ZoneId(static_cast<uint32_t>(i));
      return Status::ok();
    }
  }
  const std::string hint = did_you_mean(zone, zone_names(cluster));
  return g.ctx().error(g.get("zone"), "unknown zone '" + zone + "' in " + g.what(),
                       (hint.empty() ? "" : hint + " ") + "zones: " + join(zone_names(cluster)));
}

Status read_sizes(const MapReader& g, const RackDefaults& defaults, Group* out) {
  BOREAS_RETURN_IF_ERROR(g.count("count", &out->count, true));
  if (out->count > kMaxNodesPerGroup) {
    return g.ctx().error(g.get("count"),
                         "'count' in " + g.what() + " is " + std::to_string(out->count) + ", above the limit",
                         "use at most " + std::to_string(kMaxNodesPerGroup) + " nodes per group");
  }
  out->nodes_per_rack = defaults.nodes_per_rack;
  out->rack_power_kw = defaults.power_kw;
  out->rack_cooling_kw = defaults.cooling_kw;
  BOREAS_RETURN_IF_ERROR(g.count("nodes_per_rack", &out->nodes_per_rack, out->nodes_per_rack == 0));
  BOREAS_RETURN_IF_ERROR(g.positive("cpus", &out->cpus, true));
  BOREAS_RETURN_IF_ERROR(g.positive("memory_gib", &out->memory_gib, true));
  BOREAS_RETURN_IF_ERROR(g.positive("rack_power_kw", &out->rack_power_kw, false, true));
  return g.positive("rack_cooling_kw", &out->rack_cooling_kw, false, true);
}

Node make_node(const Group& g, RackId rack, uint32_t first_gpu) {
  Node n;
  n.rack = rack;
  n.gpu_type = g.gpu;
  n.gpu_count = static_cast<uint32_t>(g.gpus_per_node);
  n.first_gpu = first_gpu;
  n.cpu_milli = std::llround(g.cpus * 1000);
  n.memory_mib = std::llround(g.memory_gib * 1024);
  n.nvlink = g.nvlink;
  return n;
}

void expand(const Group& g, Cluster* cluster) {
  const int64_t racks = (g.count + g.nodes_per_rack - 1) / g.nodes_per_rack;
  uint32_t next_gpu = cluster->gpu_count();
  for (int64_t r = 0; r < racks; ++r) {
    Rack rack;
    rack.name = g.name + "-r" + padded(r, racks - 1);
    rack.zone = g.zone;
    rack.power_limit_kw = g.rack_power_kw;
    rack.cooling_limit_kw = g.rack_cooling_kw;
    rack.leaf = static_cast<uint32_t>(cluster->racks.size());
    const RackId rack_id(static_cast<uint32_t>(cluster->racks.size()));
    const int64_t in_rack = std::min(g.nodes_per_rack, g.count - r * g.nodes_per_rack);
    for (int64_t i = 0; i < in_rack; ++i) {
      Node n = make_node(g, rack_id, next_gpu);
      n.name = rack.name + "-n" + padded(i, g.nodes_per_rack - 1);
      next_gpu += n.gpu_count;
      cluster->nodes.push_back(std::move(n));
    }
    cluster->racks.push_back(std::move(rack));
  }
}

// A rack whose full-load draw exceeds its limits is legal but worth a warning.
void check_rack_power(const SpecContext& ctx, const YAML::Node& node, const Group& g, const Cluster& c) {
  if (c.nodes.empty() || g.count == 0) {
    return;
  }
  const double node_kw = node_power_envelope_w(c.nodes.back(), c.catalog) / 1000;
  const double rack_kw = node_kw * static_cast<double>(std::min(g.count, g.nodes_per_rack));
  for (const auto& [limit, kind] :
       {std::pair{g.rack_power_kw, "power"}, std::pair{g.rack_cooling_kw, "cooling"}}) {
    if (limit > 0 && rack_kw > limit) {
      char buf[160];
      std::snprintf(buf, sizeof(buf),
                    "racks of group '%s' draw up to %.1f kW, above their %s limit of %.1f kW", g.name.c_str(),
                    rack_kw, kind, limit);
      ctx.warn(node, buf, "lower nodes_per_rack or raise the limit");
    }
  }
}

}  // namespace

Status read_rack_defaults(const MapReader& spec, RackDefaults* out) {
  if (!spec.has("rack_defaults")) {
    return Status::ok();
  }
  const MapReader d = spec.child("rack_defaults", "rack_defaults");
  BOREAS_RETURN_IF_ERROR(d.check({"nodes_per_rack", "power_kw", "cooling_kw"}));
  BOREAS_RETURN_IF_ERROR(d.count("nodes_per_rack", &out->nodes_per_rack));
  BOREAS_RETURN_IF_ERROR(d.positive("power_kw", &out->power_kw, false, true));
  return d.positive("cooling_kw", &out->cooling_kw, false, true);
}

Status add_node_group(const SpecContext& ctx, const YAML::Node& node, const RackDefaults& defaults,
                      Cluster* cluster, std::vector<std::string>* group_names) {
  MapReader first(ctx, node, "node group");
  BOREAS_RETURN_IF_ERROR(first.check({"name", "count", "gpu", "gpus_per_node", "nvlink", "nodes_per_rack",
                                      "zone", "cpus", "memory_gib", "rack_power_kw", "rack_cooling_kw"}));
  Group g;
  BOREAS_RETURN_IF_ERROR(first.text("name", &g.name, true));
  if (std::find(group_names->begin(), group_names->end(), g.name) != group_names->end()) {
    return ctx.error(first.get("name"), "duplicate node group name '" + g.name + "'",
                     "give each group its own name (node names derive from it)");
  }
  const MapReader r(ctx, node, "group '" + g.name + "'");
  BOREAS_RETURN_IF_ERROR(read_sizes(r, defaults, &g));
  BOREAS_RETURN_IF_ERROR(read_gpu(r, cluster->catalog, &g));
  BOREAS_RETURN_IF_ERROR(read_zone(r, *cluster, &g));
  if (static_cast<int64_t>(cluster->nodes.size()) + g.count > kMaxNodes) {
    return ctx.error(r.get("count"), "the cluster would exceed " + std::to_string(kMaxNodes) + " nodes",
                     "split the spec or lower the counts");
  }
  group_names->push_back(g.name);
  expand(g, cluster);
  check_rack_power(ctx, node, g, *cluster);
  return Status::ok();
}

void assign_spines(int64_t racks_per_spine, Cluster* cluster) {
  for (auto& rack : cluster->racks) {
    rack.spine = racks_per_spine > 0 ? static_cast<uint32_t>(rack.leaf / racks_per_spine) : 0;
  }
}

}  // namespace boreas::config
