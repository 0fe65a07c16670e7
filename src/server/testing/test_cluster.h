#pragma once
// A small in-code cluster for the server's tests: nodes with H100 GPUs, no YAML needed.

#include <chrono>
#include <string>

#include "core/topology.h"
#include "policy/registry.h"

namespace boreas::server {

inline Cluster test_cluster(uint32_t nodes, uint32_t gpus_per_node) {
  Cluster c;
  c.name = "test";
  GpuType h100;
  h100.name = "H100";
  c.catalog.add(h100);
  GpuType a100;
  a100.name = "A100";
  c.catalog.add(a100);
  c.zones.push_back({});
  c.racks.push_back({"r0", ZoneId(0)});
  for (uint32_t i = 0; i < nodes; ++i) {
    Node n;
    n.name = "node" + std::to_string(i);
    n.rack = RackId(0);
    n.gpu_type = GpuTypeId(0);
    n.gpu_count = gpus_per_node;
    n.first_gpu = i * gpus_per_node;
    c.nodes.push_back(n);
  }
  return c;
}

inline std::shared_ptr<policy::Scheduler> test_scheduler(const std::string& name = "fifo",
                                                         const policy::PolicyOptions& options = {}) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  auto s = registry.make(name, options);
  return s.is_ok() ? std::shared_ptr<policy::Scheduler>(std::move(*s)) : nullptr;
}

inline Time wall_clock() {
  return Time::from_micros(std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count());
}

}  // namespace boreas::server
