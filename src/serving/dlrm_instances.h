#pragma once
// The Alibaba GPU trace v2025 (Prism, NSDI'25): one row per DLRM inference instance (a container),
// with its role (CN on CPU nodes, HN on GPU nodes), app and lifetime. It has no requests; it gives
// the instance churn of real inference services (data/traces/alibaba-dlrm-serving-2025/SOURCE.md).

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace boreas::serving {

struct DlrmInstance {
  bool gpu_node = false;  // role HN (else CN)
  uint32_t app = 0;       // index into DlrmInstances::apps
  double cpus = 0;
  double gpus = 0;
  double memory_gib = 0;
  double created_s = -1;  // -1: before the trace window
  double deleted_s = -1;  // -1: after the trace window
};

struct DlrmInstances {
  std::vector<std::string> apps;
  std::vector<DlrmInstance> instances;
};

Result<DlrmInstances> parse_dlrm_instances_csv(std::string_view text, const std::string& file);
Result<DlrmInstances> read_dlrm_instances(const std::string& path);

}  // namespace boreas::serving
