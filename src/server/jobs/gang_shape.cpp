#include "server/jobs/gang_shape.h"

#include <algorithm>

namespace boreas::server {
namespace {

// Nodes of the type (any when empty; none when the catalog does not know it) with at least `per` GPUs.
uint32_t nodes_with(const Cluster& c, const std::string& type, uint32_t per) {
  const auto id = type.empty() ? std::nullopt : c.catalog.find(type);
  if (!type.empty() && !id) {
    return 0;
  }
  return static_cast<uint32_t>(std::count_if(c.nodes.begin(), c.nodes.end(), [&](const Node& n) {
    return (type.empty() || n.gpu_type == id) && n.gpu_count >= per;
  }));
}

// Whole nodes of the largest size: the shape the placements give a gang larger than a node when
// such nodes are free (pack and first-fit fill nodes, fullest first), and the only one that is
// always even. 12 GPUs on 8-GPU nodes would come as 8 + 4, which Slurm cannot run as one job.
bool whole_nodes(const Cluster& c, uint32_t gpus, const std::string& type) {
  const uint32_t largest = largest_node(c, type);
  return largest > 0 && gpus % largest == 0 && nodes_with(c, type, largest) >= gpus / largest;
}

std::string what(uint32_t gpus, const std::string& type) {
  return "$.gpus: " + std::to_string(gpus) + " GPUs" + (type.empty() ? "" : " of type " + type);
}

}  // namespace

uint32_t largest_node(const Cluster& c, const std::string& type) {
  const auto id = type.empty() ? std::nullopt : c.catalog.find(type);
  uint32_t best = 0;
  for (const Node& n : c.nodes) {
    best = type.empty() || (id && n.gpu_type == id) ? std::max(best, n.gpu_count) : best;
  }
  return best;
}

Status check_gang_shape(const Cluster& c, uint32_t gpus, const std::string& type, bool spans_nodes) {
  const uint32_t largest = largest_node(c, type);
  if (gpus <= largest) {
    return Status::ok();
  }
  if (!spans_nodes) {
    return invalid_argument(what(gpus, type) + " can never fit: the largest such node has " +
                            std::to_string(largest) + ", and the local executor runs a job on one node (this "
                            "host); ask for at most " + std::to_string(largest) +
                            ", or run the daemon with --executor slurm, which runs a gang across nodes");
  }
  if (!whole_nodes(c, gpus, type)) {
    return invalid_argument(what(gpus, type) + " can never run as one Slurm job here: a gang larger than a node "
                            "takes whole nodes (Slurm gives every node of a job the same GPU count), and the "
                            "largest such node has " + std::to_string(largest) + " (" +
                            std::to_string(nodes_with(c, type, largest)) + " of them); ask for a multiple of " +
                            std::to_string(largest) + " up to " +
                            std::to_string(largest * nodes_with(c, type, largest)));
  }
  return Status::ok();
}

}  // namespace boreas::server
