#include "config/cluster_spec.h"

#include <cmath>
#include <filesystem>

#include "config/gpu_catalog_yaml.h"
#include "config/node_groups.h"
#include "config/spec_reader.h"
#include "config/suggest.h"

namespace boreas::config {
namespace {

const std::vector<std::string> kCoolingNames = {"air", "direct-liquid", "immersion"};

Status load_catalogs(const MapReader& spec, const std::string& base_dir, GpuCatalog* catalog) {
  const YAML::Node list = spec.get("gpu_catalog");
  BOREAS_RETURN_IF_ERROR(require_list(spec.ctx(), list, "gpu_catalog"));
  if (!list.IsDefined()) {
    return Status::ok();
  }
  for (const auto& item : list) {
    if (!item.IsScalar() || item.Scalar().empty()) {
      return spec.ctx().error(item, "'gpu_catalog' entries must be file paths, got " + describe(item),
                              "write gpu_catalog: [my-gpus.yaml]");
    }
    const std::filesystem::path path = std::filesystem::path(base_dir) / item.Scalar();
    Result<std::string> text = read_text_file(path.string());
    if (!text.is_ok()) {
      return spec.ctx().error(item,
                              "cannot load GPU catalog '" + item.Scalar() + "': " + text.status().message(),
                              "paths are relative to the spec's folder");
    }
    BOREAS_RETURN_IF_ERROR(add_catalog_yaml(*text, path.string(), catalog));
  }
  return Status::ok();
}

Status read_tier(const MapReader& fabric, std::string_view name, Cluster* cluster) {
  if (!fabric.has(name)) {
    return Status::ok();
  }
  const MapReader t = fabric.child(name, "fabric tier '" + std::string(name) + "'");
  BOREAS_RETURN_IF_ERROR(t.check({"bandwidth_gbps", "latency_us"}));
  FabricTier tier;
  tier.name = std::string(name);
  double latency_us = 0;
  BOREAS_RETURN_IF_ERROR(t.positive("bandwidth_gbps", &tier.bandwidth_gbps, true));
  BOREAS_RETURN_IF_ERROR(t.positive("latency_us", &latency_us, false, true));
  tier.latency = Duration::micros(std::llround(latency_us));
  cluster->fabric.push_back(std::move(tier));
  return Status::ok();
}

Status read_fabric(const MapReader& spec, Cluster* cluster, int64_t* racks_per_spine) {
  if (!spec.has("fabric")) {
    return Status::ok();
  }
  const MapReader f = spec.child("fabric", "fabric");
  BOREAS_RETURN_IF_ERROR(f.check({"nvlink", "leaf", "spine", "racks_per_spine"}));
  for (const char* tier : {"nvlink", "leaf", "spine"}) {
    BOREAS_RETURN_IF_ERROR(read_tier(f, tier, cluster));
  }
  return f.count("racks_per_spine", racks_per_spine);
}

Status read_cooling(const MapReader& z, Zone* zone) {
  std::string cooling = "air";
  BOREAS_RETURN_IF_ERROR(z.text("cooling", &cooling));
  const auto it = std::find(kCoolingNames.begin(), kCoolingNames.end(), cooling);
  if (it == kCoolingNames.end()) {
    const std::string hint = did_you_mean(cooling, kCoolingNames);
    return z.ctx().error(z.get("cooling"), "unknown cooling '" + cooling + "' in " + z.what(),
                         (hint.empty() ? "" : hint + " ") + "use one of: " + join(kCoolingNames));
  }
  zone->cooling = static_cast<CoolingKind>(it - kCoolingNames.begin());
  return Status::ok();
}

Status read_zone(const SpecContext& ctx, const YAML::Node& node, Cluster* cluster) {
  const MapReader first(ctx, node, "zone");
  BOREAS_RETURN_IF_ERROR(first.check({"name", "cooling", "inlet_c", "pue", "power_cap_kw", "spot"}));
  Zone zone;
  BOREAS_RETURN_IF_ERROR(first.text("name", &zone.name, true));
  for (const auto& z : cluster->zones) {
    if (z.name == zone.name) {
      return ctx.error(first.get("name"), "duplicate zone name '" + zone.name + "'",
                       "give each zone its own name");
    }
  }
  const MapReader z(ctx, node, "zone '" + zone.name + "'");
  BOREAS_RETURN_IF_ERROR(read_cooling(z, &zone));
  BOREAS_RETURN_IF_ERROR(z.number("inlet_c", &zone.inlet_c));
  BOREAS_RETURN_IF_ERROR(z.positive("pue", &zone.pue));
  if (zone.pue < 1.0) {
    return ctx.error(z.get("pue"),
                     "'pue' in " + z.what() + " must be at least 1.0, got " + describe(z.get("pue")),
                     "PUE is facility energy over IT energy; typical values are 1.1 to 1.8");
  }
  BOREAS_RETURN_IF_ERROR(z.positive("power_cap_kw", &zone.power_cap_kw, false, true));
  BOREAS_RETURN_IF_ERROR(z.boolean("spot", &zone.spot));
  cluster->zones.push_back(std::move(zone));
  return Status::ok();
}

Status read_zones(const MapReader& spec, Cluster* cluster) {
  const YAML::Node zones = spec.get("zones");
  BOREAS_RETURN_IF_ERROR(require_list(spec.ctx(), zones, "zones"));
  if (!zones.IsDefined() || zones.size() == 0) {
    cluster->zones.push_back(Zone{.name = "default"});  // documented: one air zone when none is given
    return Status::ok();
  }
  for (const auto& z : zones) {
    BOREAS_RETURN_IF_ERROR(read_zone(spec.ctx(), z, cluster));
  }
  return Status::ok();
}

Status read_groups(const MapReader& spec, Cluster* cluster) {
  const YAML::Node groups = spec.get("groups");
  if (!groups.IsDefined()) {
    return spec.ctx().error(spec.node(), "cluster spec is missing required key 'groups'",
                            "add 'groups:' with at least one node group");
  }
  BOREAS_RETURN_IF_ERROR(require_list(spec.ctx(), groups, "groups"));
  if (groups.size() == 0) {
    return spec.ctx().error(groups, "'groups' is empty", "add at least one node group");
  }
  RackDefaults defaults;
  BOREAS_RETURN_IF_ERROR(read_rack_defaults(spec, &defaults));
  std::vector<std::string> names;
  for (const auto& g : groups) {
    BOREAS_RETURN_IF_ERROR(add_node_group(spec.ctx(), g, defaults, cluster, &names));
  }
  return Status::ok();
}

Result<Cluster> build_cluster(const YAML::Node& root, const SpecContext& ctx, const std::string& base_dir) {
  const MapReader spec(ctx, root, "cluster spec");
  BOREAS_RETURN_IF_ERROR(
      spec.check({"name", "gpu_catalog", "fabric", "zones", "rack_defaults", "groups", "description"}));
  Cluster cluster;
  cluster.catalog = builtin_gpu_catalog();
  BOREAS_RETURN_IF_ERROR(spec.text("name", &cluster.name, true));
  BOREAS_RETURN_IF_ERROR(load_catalogs(spec, base_dir, &cluster.catalog));
  int64_t racks_per_spine = 0;
  BOREAS_RETURN_IF_ERROR(read_fabric(spec, &cluster, &racks_per_spine));
  BOREAS_RETURN_IF_ERROR(read_zones(spec, &cluster));
  BOREAS_RETURN_IF_ERROR(read_groups(spec, &cluster));
  assign_spines(racks_per_spine, &cluster);
  return cluster;
}

}  // namespace

Result<Cluster> load_cluster_string(const std::string& yaml, const std::string& name_for_errors,
                                    std::vector<Warning>* warnings) {
  Result<YAML::Node> root = parse_yaml(yaml, name_for_errors);
  if (!root.is_ok()) {
    return root.status();
  }
  const SpecContext ctx(name_for_errors, warnings);
  const std::string base_dir = std::filesystem::path(name_for_errors).parent_path().string();
  try {
    return build_cluster(*root, ctx, base_dir);
  } catch (const YAML::Exception& e) {  // the boundary: no spec may crash the program
    return yaml_exception_status(name_for_errors, e);
  }
}

Result<Cluster> load_cluster_file(const std::string& path, std::vector<Warning>* warnings) {
  Result<std::string> text = read_text_file(path);
  if (!text.is_ok()) {
    return text.status();
  }
  return load_cluster_string(*text, path, warnings);
}

}  // namespace boreas::config
