#pragma once
// Expands the compact node-group form of a cluster spec into racks and nodes.

#include <string>
#include <vector>

#include "config/spec_reader.h"
#include "core/topology.h"

namespace boreas::config {

// `rack_defaults:` of a spec; a group may override each field.
struct RackDefaults {
  int64_t nodes_per_rack = 0;  // 0 = every group must say
  double power_kw = 0;         // 0 = unlimited
  double cooling_kw = 0;       // 0 = unlimited
};

// Upper bounds that keep a typo (count: 1000000000) from exhausting memory.
inline constexpr int64_t kMaxNodesPerGroup = 100'000;
inline constexpr int64_t kMaxGpusPerNode = 64;
inline constexpr int64_t kMaxNodes = 1'000'000;

Status read_rack_defaults(const MapReader& spec, RackDefaults* out);

// Reads one `groups:` entry and appends its racks and nodes (GPU ids stay dense). Leaf = rack
// index; spines are assigned afterwards by assign_spines.
Status add_node_group(const SpecContext& ctx, const YAML::Node& node, const RackDefaults& defaults,
                      Cluster* cluster, std::vector<std::string>* group_names);

// spine = leaf / racks_per_spine (all racks under spine 0 when racks_per_spine is 0).
void assign_spines(int64_t racks_per_spine, Cluster* cluster);

}  // namespace boreas::config
