#include "sim/reference.h"

#include <algorithm>
#include <vector>


namespace boreas::sim {

namespace {

// Formats whose traces record no GPU type but whose hardware era is known. Philly ran from
// Oct to Dec 2017 on Pascal-generation GPUs with 12 GB and 24 GB of memory (P100/P40 class,
// per the upstream trace's machine list); P100 is the catalog's Pascal part.
struct FormatRule {
  std::string_view format;
  std::string_view gpu;
  std::string_view why;
};
constexpr FormatRule kFormatRules[] = {
    {"philly", "P100", "rule for Philly traces (2017, Pascal-generation GPUs; docs/experiments.md)"},
};

}  // namespace

std::optional<GpuTypeId> most_common_gpu_type(const Cluster& cluster) {
  std::vector<uint64_t> by_type(cluster.catalog.size(), 0);
  for (const Node& n : cluster.nodes) {
    if (n.gpu_type) {
      by_type[n.gpu_type->value()] += n.gpu_count;
    }
  }
  const auto best = std::max_element(by_type.begin(), by_type.end());
  if (best == by_type.end() || *best == 0) {
    return std::nullopt;
  }
  return GpuTypeId(static_cast<uint32_t>(best - by_type.begin()));
}

Result<ReferenceGpu> choose_reference_gpu(std::string_view flag, std::string_view trace_format,
                                          const Cluster& cluster) {
  if (!flag.empty()) {
    const auto type = cluster.catalog.find(flag);
    if (!type) {
      return invalid_argument("--reference-gpu: '" + std::string(flag) +
                              "' is not a GPU type of the catalog; use one of the names `boreas cluster "
                              "show` lists, e.g. H100-SXM, A100-80G, V100-16G");
    }
    return ReferenceGpu{cluster.catalog.at(*type).name, "--reference-gpu"};
  }
  for (const FormatRule& rule : kFormatRules) {
    if (rule.format == trace_format && cluster.catalog.find(rule.gpu)) {
      return ReferenceGpu{std::string(rule.gpu), std::string(rule.why)};
    }
  }
  const auto common = most_common_gpu_type(cluster);
  return ReferenceGpu{common ? cluster.catalog.at(*common).name : std::string(),
                      "the cluster's most common GPU type (the trace names no hardware; set --reference-gpu)"};
}

double reference_capacity(const Cluster& cluster, const std::string& reference_gpu,
                          const models::ThroughputParams* throughput) {
  const auto ref = cluster.catalog.find(reference_gpu);
  const models::ThroughputModel model(throughput ? *throughput : models::default_throughput_params());
  const size_t cls = model.class_index("");
  const double ref_rate = ref && throughput ? model.rate(cls, cluster.catalog.at(*ref)) : 0.0;
  double capacity = 0;
  for (const Node& n : cluster.nodes) {
    if (!n.gpu_type || n.gpu_count == 0) {
      continue;
    }
    const double worth = ref_rate > 0 ? model.rate(cls, cluster.catalog.at(*n.gpu_type)) / ref_rate : 1.0;
    capacity += worth * n.gpu_count;
  }
  return capacity;
}

}  // namespace boreas::sim
