#pragma once
// Programmatic clusters and job lists for tests, so they do not depend on YAML or trace files.

#include <cstdint>
#include <vector>

#include "core/job.h"
#include "core/symbol.h"
#include "core/topology.h"

namespace boreas::testing {

// `racks` racks of `nodes_per_rack` nodes with `gpus_per_node` GPUs of one type, one zone.
Cluster uniform_cluster(uint32_t racks, uint32_t nodes_per_rack, uint32_t gpus_per_node);

// uniform_cluster with one hot GPU type (400 W TDP, 40 W idle, 100 BF16 TFLOPS, 1,000 GB/s) in
// one air-cooled zone whose inlet is `inlet_c`: GPUs that run long enough throttle.
Cluster hot_air_cluster(uint32_t racks, uint32_t nodes_per_rack, uint32_t gpus_per_node, double inlet_c);

// A job list whose ids are dense in order of `add`.
class JobListBuilder {
 public:
  JobListBuilder& add(int64_t submit_s, uint32_t gpus, int64_t duration_s, const char* queue = "default");
  std::vector<JobSpec>& jobs() { return jobs_; }
  SymbolTable& symbols() { return symbols_; }

 private:
  SymbolTable symbols_;
  std::vector<JobSpec> jobs_;
};

}  // namespace boreas::testing
