#include "support/cluster_builder.h"

#include <string>

namespace boreas::testing {

Cluster uniform_cluster(uint32_t racks, uint32_t nodes_per_rack, uint32_t gpus_per_node) {
  Cluster c;
  c.name = "uniform-" + std::to_string(racks * nodes_per_rack * gpus_per_node);
  GpuType type;
  type.name = "TEST";
  c.catalog.add(type);
  c.zones.push_back(Zone{.name = "zone0"});
  uint32_t gpu = 0;
  for (uint32_t r = 0; r < racks; ++r) {
    c.racks.push_back(Rack{.name = "rack" + std::to_string(r), .zone = ZoneId(0), .leaf = r});
    for (uint32_t n = 0; n < nodes_per_rack; ++n) {
      Node node;
      node.name = "node" + std::to_string(r * nodes_per_rack + n);
      node.rack = RackId(r);
      node.gpu_type = GpuTypeId(0);
      node.gpu_count = gpus_per_node;
      node.first_gpu = gpu;
      gpu += gpus_per_node;
      c.nodes.push_back(node);
    }
  }
  return c;
}

Cluster hot_air_cluster(uint32_t racks, uint32_t nodes_per_rack, uint32_t gpus_per_node, double inlet_c) {
  Cluster c = uniform_cluster(racks, nodes_per_rack, gpus_per_node);
  GpuType t = c.catalog.at(GpuTypeId(0));
  t.tdp_w = 400;
  t.idle_w = 40;
  t.bf16_tflops = 100;
  t.memory_bandwidth_gbps = 1000;
  GpuCatalog catalog;
  catalog.add(t);
  c.catalog = catalog;
  c.zones[0].cooling = CoolingKind::kAir;
  c.zones[0].inlet_c = inlet_c;
  return c;
}

JobListBuilder& JobListBuilder::add(int64_t submit_s, uint32_t gpus, int64_t duration_s, const char* queue) {
  JobSpec j;
  j.id = JobId(static_cast<uint32_t>(jobs_.size()));
  j.name = symbols_.add(std::to_string(jobs_.size()));
  j.queue = symbols_.intern(queue);
  j.gpus = gpus;
  j.submit = Time::from_seconds(submit_s);
  j.duration = Duration::seconds(duration_s);
  jobs_.push_back(j);
  return *this;
}

}  // namespace boreas::testing
