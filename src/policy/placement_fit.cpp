// Fit searches over the free index, and the pack and consolidated placements built on them.
#include <algorithm>
#include <limits>

#include "policy/placement_util.h"

namespace boreas::policy {

void fill_fullest_first(const JobSpec& job, const Scratch& s, TypeFilter& types, std::vector<GpuId>& out) {
  const auto& view = s.view();
  auto missing = [&] { return job.gpus - static_cast<uint32_t>(out.size()); };
  for (NodeId n : s.touched_nodes()) {
    if (missing() > 0 && types.allows(job, view.cluster().nodes[n.value()], view)) {
      s.take_free_on_node(n, missing(), out);
    }
  }
  const auto& index = view.state().free_index();
  for (GpuTypeId t : types.allowed(job, view)) {
    for (uint32_t f = index.max_free(t); f > 0 && missing() > 0; --f) {
      for (NodeId n : index.nodes_with(t, f)) {
        if (missing() == 0) {
          break;
        }
        if (!s.touched(n)) {
          s.take_free_on_node(n, missing(), out);
        }
      }
    }
  }
}

std::optional<NodeId> best_fit_node(const JobSpec& job, uint32_t need, const Scratch& s, TypeFilter& types) {
  const auto& view = s.view();
  std::optional<NodeId> best;
  uint32_t best_free = std::numeric_limits<uint32_t>::max();
  for (NodeId n : s.touched_nodes()) {
    const uint32_t f = s.node_free(n);
    if (f >= need && f < best_free && types.allows(job, view.cluster().nodes[n.value()], view)) {
      best = n;
      best_free = f;
    }
  }
  const auto& index = view.state().free_index();
  for (GpuTypeId t : types.allowed(job, view)) {
    for (uint32_t f = std::max(need, 1u); f <= index.max_free(t) && f < best_free; ++f) {
      for (NodeId n : index.nodes_with(t, f)) {
        if (!s.touched(n)) {
          best = n;
          best_free = f;
          break;
        }
      }
    }
  }
  return best;
}

namespace {

// A rack's nodes that may hold the gang, fullest first.
std::vector<NodeId> rack_nodes_fullest_first(RackId rack, const JobSpec& job, const Scratch& s, TypeFilter& types) {
  const auto& view = s.view();
  std::vector<NodeId> nodes;
  for (NodeId n : view.state().nodes_of_rack(rack)) {
    if (s.node_free(n) > 0 && types.allows(job, view.cluster().nodes[n.value()], view)) {
      nodes.push_back(n);
    }
  }
  std::stable_sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) { return s.node_free(a) > s.node_free(b); });
  return nodes;
}

// How many of `nodes` (fullest first) the gang needs; 0 when they cannot hold it.
uint32_t nodes_needed(const std::vector<NodeId>& nodes, uint32_t gpus, const Scratch& s) {
  uint32_t have = 0;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    have += s.node_free(nodes[i]);
    if (have >= gpus) {
      return i + 1;
    }
  }
  return 0;
}

// The fewest nodes any gang of `gpus` needs: no node holds more GPUs than the largest node of
// an allowed type.
uint32_t fewest_nodes(const JobSpec& job, uint32_t gpus, const Scratch& s, TypeFilter& types) {
  uint32_t largest = 0;
  for (GpuTypeId t : types.allowed(job, s.view())) {
    largest = std::max(largest, s.view().state().free_index().max_free(t));
  }
  return largest == 0 ? 1 : (gpus + largest - 1) / largest;
}

// The gang in one rack on as few nodes as any rack allows (ties: the rack it fits most tightly),
// fullest nodes first; empty when no rack can hold it. Once a rack needs the fewest nodes any
// could, only a rack with fewer free GPUs can win, so the others are not sorted.
std::vector<GpuId> fill_one_rack(const JobSpec& job, const Scratch& s, TypeFilter& types) {
  std::vector<NodeId> best;
  uint32_t best_count = 0;
  uint32_t best_free = 0;
  const uint32_t fewest = fewest_nodes(job, job.gpus, s, types);
  for (uint32_t r = 0; r < s.view().cluster().racks.size(); ++r) {
    const uint32_t free = s.rack_free(RackId(r));
    if (free < job.gpus || (best_count == fewest && free >= best_free)) {
      continue;
    }
    std::vector<NodeId> nodes = rack_nodes_fullest_first(RackId(r), job, s, types);
    const uint32_t count = nodes_needed(nodes, job.gpus, s);
    if (count > 0 && (best_count == 0 || count < best_count || (count == best_count && free < best_free))) {
      best = std::move(nodes);
      best_count = count;
      best_free = free;
    }
  }
  std::vector<GpuId> out;
  for (uint32_t i = 0; i < best_count; ++i) {
    s.take_free_on_node(best[i], job.gpus - static_cast<uint32_t>(out.size()), out);
  }
  return out;
}

uint32_t distinct_nodes(const std::vector<GpuId>& gpus, const state::ClusterView& view) {
  std::vector<uint32_t> nodes;
  for (GpuId g : gpus) {
    nodes.push_back(view.state().node_of(g).value());
  }
  std::sort(nodes.begin(), nodes.end());
  return static_cast<uint32_t>(std::unique(nodes.begin(), nodes.end()) - nodes.begin());
}

// Best fit in one node first; a gang that fits no single node is handed to `spread`.
class OneNodeFirst : public Placement {
 public:
  bool reads_shape_only() const final { return true; }
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const Scratch& s) final {
    if (job.gpus > s.total_free()) {
      return std::nullopt;
    }
    if (auto node = best_fit_node(job, job.gpus, s, types_)) {
      std::vector<GpuId> out;
      s.take_free_on_node(*node, job.gpus, out);
      return out;
    }
    return spread(job, s);
  }

 protected:
  virtual std::optional<std::vector<GpuId>> spread(const JobSpec& job, const Scratch& s) = 0;
};

class PackPlacement final : public OneNodeFirst {
 public:
  std::string_view name() const override { return "pack"; }

 private:
  // Fewest nodes first (fullest-first over the whole cluster needs the fewest), then one rack:
  // the one-rack choice wins when it needs no more nodes than that.
  std::optional<std::vector<GpuId>> spread(const JobSpec& job, const Scratch& s) override {
    std::vector<GpuId> anywhere;
    fill_fullest_first(job, s, types_, anywhere);
    if (anywhere.size() < job.gpus) {
      return std::nullopt;
    }
    std::vector<GpuId> rack = fill_one_rack(job, s, types_);
    if (!rack.empty() && distinct_nodes(rack, s.view()) <= distinct_nodes(anywhere, s.view())) {
      return rack;
    }
    return anywhere;
  }
};

class ConsolidatedPlacement final : public OneNodeFirst {
 public:
  std::string_view name() const override { return "consolidated"; }

 private:
  std::optional<std::vector<GpuId>> spread(const JobSpec& job, const Scratch& s) override {
    if (fits_in_some_node(job, s)) {
      return std::nullopt;  // a one-node gang waits for a node rather than spreading
    }
    return whole_nodes_in_one_rack(job, s);
  }

  bool fits_in_some_node(const JobSpec& job, const Scratch& s) {
    const auto& index = s.view().state().free_index();
    for (GpuTypeId t : types_.allowed(job, s.view())) {
      if (index.max_free(t) >= job.gpus) {
        return true;
      }
    }
    return false;
  }

  std::optional<std::vector<GpuId>> whole_nodes_in_one_rack(const JobSpec& job, const Scratch& s) {
    const auto& view = s.view();
    for (uint32_t r = 0; r < view.cluster().racks.size(); ++r) {
      if (s.rack_free(RackId(r)) < job.gpus) {
        continue;
      }
      std::vector<GpuId> out;
      for (NodeId n : view.state().nodes_of_rack(RackId(r))) {
        const Node& node = view.cluster().nodes[n.value()];
        if (out.size() < job.gpus && s.node_free(n) == node.gpu_count && types_.allows(job, node, view)) {
          s.take_free_on_node(n, job.gpus - static_cast<uint32_t>(out.size()), out);
        }
      }
      if (out.size() == job.gpus) {
        return out;
      }
    }
    return std::nullopt;
  }
};

}  // namespace

std::unique_ptr<Placement> make_pack_placement() {
  return std::make_unique<PackPlacement>();
}
std::unique_ptr<Placement> make_consolidated_placement() {
  return std::make_unique<ConsolidatedPlacement>();
}

}  // namespace boreas::policy
