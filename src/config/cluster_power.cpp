#include "config/cluster_power.h"

namespace boreas::config {

double node_power_envelope_w(const Node& node, const GpuCatalog& catalog) {
  double gpu_w = 0;
  if (node.gpu_type) {
    gpu_w = catalog.at(*node.gpu_type).tdp_w * node.gpu_count;
  }
  return kNodeBaseW + kNodeBasePerGpuW * node.gpu_count + gpu_w;
}

}  // namespace boreas::config
