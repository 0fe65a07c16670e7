#pragma once
// Communication cost by placement (FACTS §2.2): α-β ring all-reduce per fabric tier and NCCL-style
// hierarchical all-reduce for gangs that span nodes; step time and placement efficiency.

#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"
#include "core/status.h"
#include "core/time.h"
#include "core/topology.h"
#include "models/param_table.h"

namespace boreas::models {

// Where a gang sits: uniform by assumption. For an uneven gang pass the smallest count of GPUs on
// any of its nodes (that node's NICs carry the largest share) and the total nodes and leaves.
struct PlacementSummary {
  uint32_t gpus_per_node = 1;
  uint32_t nodes = 1;
  uint32_t leaves = 1;  // distinct leaf switches; > 1 means traffic crosses the spine
  uint32_t gpus() const { return gpus_per_node * nodes; }
};

struct CommParams {
  // Achieved / spec bandwidth per tier. In-node 0.85: "links achieve about 80–90% of spec"
  // (FACTS §2.1; A100 235 of 300). NVLS parts beat it (8×H100: 460–480 GB/s against 450 spec).
  // Network 0.73: 4×8 B200 reach 36.5 of 50 GB/s per NIC (FACTS §2.3, N3).
  double nvlink_efficiency = param("comm.nvlink_efficiency");
  double network_efficiency = param("comm.network_efficiency");
  // How the intra- and inter-node phases of a hierarchical all-reduce combine:
  // T = max(a, b) + (1 − overlap) × min(a, b). 1 = FACTS' lower bound (max), 0 = upper (sum).
  double hierarchical_overlap = param("comm.hierarchical_overlap");
  // Used when a node has no NVLink domain (PCIe Gen4 x16, FACTS §2.1).
  double pcie_gbps = param("comm.pcie_gbps");
  Duration pcie_latency = Duration::micros(static_cast<int64_t>(param("comm.pcie_latency_us")));
};

Status validate(const CommParams& p);

// One tier as the model sees it: per-GPU, per-direction bandwidth (GB/s) and per-step latency.
struct Link {
  double bandwidth_gbps = 0;
  double latency_us = 0;
};

// Ring all-reduce of `bytes` over p ranks: 2(p−1)·α + 2(p−1)/p · n/B, in seconds.
double ring_allreduce_seconds(uint32_t p, double bytes, Link link);

// The links a placement uses, from the cluster fabric (innermost first: nvlink, leaf, spine).
// A fabric with fewer tiers reuses its outermost tier; an empty fabric gets the PCIe fallback.
struct PlacementLinks {
  Link intra;  // inside a node
  Link inter;  // between nodes (leaf tier, or the slowest crossed tier when leaves > 1)
};
PlacementLinks placement_links(const std::vector<FabricTier>& fabric, bool nvlink, const PlacementSummary& pl,
                               const CommParams& params);

// Hierarchical all-reduce (FACTS §2.2): 2(g−1)/g·n on the intra link, 2(k−1)/k·(n/g) on the inter
// link, combined by `hierarchical_overlap`. One node → a plain ring; one GPU → zero.
double allreduce_seconds(const PlacementSummary& pl, double bytes, const PlacementLinks& links,
                         const CommParams& params);

// nccl-tests bus bandwidth of an all-reduce that took `seconds` (FACTS §2.2 correction).
double allreduce_busbw_gbps(uint32_t ranks, double bytes, double seconds);

// A gang's GPUs on one node.
struct NodeGpus {
  NodeId node;
  uint32_t gpus = 0;
};
struct GangPlacement {
  PlacementSummary summary;
  bool nvlink = true;  // every node of the gang has an NVLink domain
};
// Summarises where a gang sits: the smallest GPU count on any node, the node count and the number
// of distinct leaf switches (from each node's rack). Node ids must be valid for the cluster.
GangPlacement summarize_placement(const Cluster& cluster, std::span<const NodeGpus> nodes);

// The tightest placement of `gpus` GPUs: fill nodes of `node_gpus`, then leaves of `leaf_nodes`.
PlacementSummary tightest_placement(uint32_t gpus, uint32_t node_gpus, uint32_t leaf_nodes);

// step = compute + (1 − overlap) × communication (overlap of communication with compute, [0, 1]).
double step_seconds(double compute_s, double comm_s, double overlap);
// ideal step / actual step, in (0, 1].
double placement_efficiency(double compute_s, double comm_ideal_s, double comm_actual_s, double overlap);

}  // namespace boreas::models
