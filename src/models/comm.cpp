#include "models/comm.h"

#include <algorithm>

#include "models/param_check.h"

namespace boreas::models {
namespace {

Link to_link(const FabricTier& tier, double efficiency) {
  return {tier.bandwidth_gbps * efficiency, tier.latency.to_seconds() * 1e6};
}

// The slowest of the tiers from `first` to `last` (inclusive): a ring step waits for its slowest hop.
Link slowest(const std::vector<FabricTier>& fabric, size_t first, size_t last, double efficiency) {
  Link worst = to_link(fabric[first], efficiency);
  for (size_t i = first + 1; i <= last; ++i) {
    worst.bandwidth_gbps = std::min(worst.bandwidth_gbps, fabric[i].bandwidth_gbps * efficiency);
    worst.latency_us = std::max(worst.latency_us, fabric[i].latency.to_seconds() * 1e6);
  }
  return worst;
}

}  // namespace

Status validate(const CommParams& p) {
  return ParamCheck("communication")
      .positive("nvlink_efficiency", p.nvlink_efficiency)
      .positive("network_efficiency", p.network_efficiency)
      .in("hierarchical_overlap", p.hierarchical_overlap, 0, 1)
      .positive("pcie_gbps", p.pcie_gbps)
      .at_least("pcie_latency (s)", p.pcie_latency.to_seconds(), 0)
      .status();
}

double ring_allreduce_seconds(uint32_t p, double bytes, Link link) {
  if (p <= 1) {
    return 0;
  }
  const double steps = 2.0 * (p - 1);
  return steps * link.latency_us * 1e-6 + steps / p * bytes / (link.bandwidth_gbps * 1e9);
}

PlacementLinks placement_links(const std::vector<FabricTier>& fabric, bool nvlink, const PlacementSummary& pl,
                               const CommParams& params) {
  const Link pcie{params.pcie_gbps, params.pcie_latency.to_seconds() * 1e6};
  if (fabric.empty()) {
    return {pcie, pcie};
  }
  PlacementLinks links;
  links.intra = nvlink ? to_link(fabric[0], params.nvlink_efficiency) : pcie;
  const size_t last = fabric.size() - 1;
  const size_t leaf = std::min<size_t>(1, last);
  const size_t outer = pl.leaves > 1 ? std::min<size_t>(2, last) : leaf;
  links.inter = slowest(fabric, leaf, outer, params.network_efficiency);
  return links;
}

double allreduce_seconds(const PlacementSummary& pl, double bytes, const PlacementLinks& links,
                         const CommParams& params) {
  const uint32_t g = pl.gpus_per_node;
  const uint32_t k = pl.nodes;
  if (k <= 1) {
    return ring_allreduce_seconds(g, bytes, links.intra);
  }
  const double intra = ring_allreduce_seconds(g, bytes, links.intra);
  const double inter = ring_allreduce_seconds(k, bytes / g, links.inter);
  return std::max(intra, inter) + (1.0 - params.hierarchical_overlap) * std::min(intra, inter);
}

double allreduce_busbw_gbps(uint32_t ranks, double bytes, double seconds) {
  if (ranks <= 1 || seconds <= 0) {
    return 0;
  }
  return bytes / seconds * 2.0 * (ranks - 1) / ranks / 1e9;
}

GangPlacement summarize_placement(const Cluster& cluster, std::span<const NodeGpus> nodes) {
  GangPlacement g;
  if (nodes.empty()) {
    return g;
  }
  std::vector<uint32_t> leaves;
  g.summary.gpus_per_node = nodes.front().gpus;
  for (const NodeGpus& n : nodes) {
    const Node& node = cluster.nodes[n.node.value()];
    g.summary.gpus_per_node = std::min(g.summary.gpus_per_node, n.gpus);
    g.nvlink = g.nvlink && node.nvlink;
    leaves.push_back(cluster.rack_of(node).leaf);
  }
  std::sort(leaves.begin(), leaves.end());
  g.summary.nodes = static_cast<uint32_t>(nodes.size());
  g.summary.leaves = static_cast<uint32_t>(std::unique(leaves.begin(), leaves.end()) - leaves.begin());
  return g;
}

PlacementSummary tightest_placement(uint32_t gpus, uint32_t node_gpus, uint32_t leaf_nodes) {
  PlacementSummary pl;
  if (gpus == 0 || node_gpus == 0 || leaf_nodes == 0) {
    return pl;  // nothing to place, or a capacity of zero: one GPU's summary, no communication
  }
  pl.gpus_per_node = std::min(gpus, node_gpus);
  pl.nodes = (gpus + node_gpus - 1) / node_gpus;
  pl.leaves = (pl.nodes + leaf_nodes - 1) / leaf_nodes;
  return pl;
}

double step_seconds(double compute_s, double comm_s, double overlap) {
  return compute_s + (1.0 - overlap) * comm_s;
}

double placement_efficiency(double compute_s, double comm_ideal_s, double comm_actual_s, double overlap) {
  const double actual = step_seconds(compute_s, comm_actual_s, overlap);
  return actual > 0 ? step_seconds(compute_s, comm_ideal_s, overlap) / actual : 1.0;
}

}  // namespace boreas::models
