#include <fmt/format.h>
#include <fmt/ranges.h>

#include "serving/simulator.h"

namespace boreas::serving {

Result<Placement> placement_on(const Cluster& cluster, const ServiceSpec& service, const std::string& cluster_file) {
  const auto type = cluster.catalog.find(service.gpu);
  if (!type) {
    return not_found(fmt::format("service '{}': GPU type '{}' is not in the catalog of {}; known: {}", service.name,
                                 service.gpu, cluster_file, fmt::join(cluster.catalog.names(), ", ")));
  }
  Placement p{cluster.catalog.at(*type), 0};
  for (const auto& n : cluster.nodes) {
    p.gpus_available += n.gpu_type == type ? n.gpu_count : 0;
  }
  if (p.gpus_available == 0) {
    return invalid_argument(fmt::format("service '{}': {} has no {} GPUs; pick a replica.gpu the cluster has",
                                        service.name, cluster_file, p.gpu.name));
  }
  return p;
}

}  // namespace boreas::serving
