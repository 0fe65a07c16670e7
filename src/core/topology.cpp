#include "core/topology.h"

namespace boreas {

std::string_view to_string(CoolingKind kind) {
  switch (kind) {
    case CoolingKind::kAir:
      return "air";
    case CoolingKind::kDirectLiquid:
      return "direct-liquid";
    case CoolingKind::kImmersion:
      return "immersion";
  }
  return "unknown";
}

uint32_t Cluster::gpu_count() const {
  uint32_t total = 0;
  for (const auto& n : nodes) {
    total += n.gpu_count;
  }
  return total;
}

}  // namespace boreas
