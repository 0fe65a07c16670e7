#include "config/cluster_summary.h"

#include "config/cluster_power.h"

namespace boreas::config {
namespace {

void add_compute(const GpuType& t, uint32_t n, ClusterSummary* s) {
  const double k = n / 1000.0;  // TFLOPS -> PFLOPS
  s->peak.bf16 += t.bf16_tflops * k;
  s->peak.fp8 += t.fp8_tflops.value_or(0) * k;
  s->peak.tf32 += t.tf32_tflops.value_or(0) * k;
  s->peak.fp32 += t.fp32_tflops * k;
  s->on_demand_usd_per_hour += t.price.on_demand_usd_per_hour * n;
}

void add_node(const Cluster& c, const Node& node, ClusterSummary* s, std::vector<GpuTypeSummary>* by_type) {
  ++s->nodes;
  s->cpus += node.cpu_milli / 1000;
  s->memory_gib += node.memory_mib / 1024;
  s->gpus += node.gpu_count;
  const double kw = node_power_envelope_w(node, c.catalog) / 1000;
  s->it_power_kw += kw;
  ZoneSummary& z = s->zones[c.rack_of(node).zone.value()];
  ++z.nodes;
  z.gpus += node.gpu_count;
  z.it_power_kw += kw;
  if (!node.gpu_type || node.gpu_count == 0) {
    ++s->cpu_only_nodes;
    return;
  }
  GpuTypeSummary& t = (*by_type)[node.gpu_type->value()];
  ++t.nodes;
  t.gpus += node.gpu_count;
  add_compute(c.catalog.at(*node.gpu_type), node.gpu_count, s);
}

}  // namespace

ClusterSummary summarize(const Cluster& cluster) {
  ClusterSummary s;
  s.name = cluster.name;
  s.racks = static_cast<uint32_t>(cluster.racks.size());
  for (const auto& z : cluster.zones) {
    s.zones.push_back({.name = z.name, .cooling = std::string(to_string(z.cooling)), .pue = z.pue, .spot = z.spot});
  }
  for (const auto& r : cluster.racks) {
    ++s.zones[r.zone.value()].racks;
  }
  std::vector<GpuTypeSummary> by_type(cluster.catalog.size());
  for (const auto& node : cluster.nodes) {
    add_node(cluster, node, &s, &by_type);
  }
  for (size_t i = 0; i < by_type.size(); ++i) {
    if (by_type[i].gpus > 0) {
      const GpuType& t = cluster.catalog.at(GpuTypeId(static_cast<uint32_t>(i)));
      by_type[i].type = t.name;
      by_type[i].placeholder = t.placeholder;
      s.gpu_types.push_back(by_type[i]);
    }
  }
  for (size_t i = 0; i < s.zones.size(); ++i) {
    s.facility_power_kw += s.zones[i].it_power_kw * cluster.zones[i].pue;
  }
  return s;
}

}  // namespace boreas::config
