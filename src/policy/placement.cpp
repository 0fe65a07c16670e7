#include "policy/placement.h"

#include <algorithm>
#include "policy/placement_util.h"

#include <string>

namespace boreas::policy {

const std::vector<GpuTypeId>& TypeFilter::allowed(const JobSpec& job, const state::ClusterView& view) {
  auto [it, inserted] = cache_.try_emplace(job.gpu_types.index());
  if (!inserted) {
    return it->second;
  }
  const GpuCatalog& catalog = view.cluster().catalog;
  const std::string_view names = view.state().symbols().view(job.gpu_types);
  if (job.gpu_types.empty() || names.empty()) {
    for (uint32_t t = 0; t < view.state().free_index().type_count(); ++t) {
      it->second.push_back(GpuTypeId(t));
    }
    return it->second;
  }
  size_t begin = 0;
  while (begin <= names.size()) {
    const size_t end = std::min(names.find('|', begin), names.size());
    if (auto id = catalog.find(names.substr(begin, end - begin))) {
      it->second.push_back(*id);
    }
    begin = end + 1;
  }
  return it->second;
}

bool TypeFilter::allows(const JobSpec& job, const Node& node, const state::ClusterView& view) {
  return allows(allowed(job, view), node);
}

bool TypeFilter::allows(const std::vector<GpuTypeId>& allowed, const Node& node) {
  return node.gpu_type && std::find(allowed.begin(), allowed.end(), *node.gpu_type) != allowed.end();
}

std::optional<std::vector<GpuId>> place_recalled(Placement& placement, const JobSpec& job, const Scratch& scratch) {
  if (!placement.reads_shape_only()) {
    return placement.place(job, scratch);
  }
  const Scratch::Shape shape{job.gpus, job.gpu_types.index(), job.preemptible};
  if (scratch.refused_before(shape)) {
    return std::nullopt;
  }
  auto gpus = placement.place(job, scratch);
  if (!gpus) {
    scratch.remember_refused(shape);
  }
  return gpus;
}

namespace {

class CountPlacement final : public Placement {
 public:
  std::string_view name() const override { return "count"; }
  bool reads_shape_only() const override { return true; }

  // Fullest-free nodes first, so a gang spans few nodes; only the count matters to the peers.
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const Scratch& s) override {
    if (job.gpus > s.total_free()) {
      return std::nullopt;
    }
    std::vector<GpuId> out;
    out.reserve(job.gpus);
    fill_fullest_first(job, s, types_, out);
    if (out.size() < job.gpus) {
      return std::nullopt;
    }
    return out;
  }
};

class FirstFitPlacement final : public Placement {
 public:
  std::string_view name() const override { return "first-fit"; }
  bool reads_shape_only() const override { return true; }

  // A scan in node order: first-fit is defined by that order, so no index helps.
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const Scratch& s) override {
    if (job.gpus > s.total_free()) {
      return std::nullopt;
    }
    const auto& nodes = s.view().cluster().nodes;
    std::vector<GpuId> out;
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].gpu_count >= job.gpus && s.node_free(NodeId(i)) >= job.gpus &&
          types_.allows(job, nodes[i], s.view())) {
        s.take_free_on_node(NodeId(i), job.gpus, out);
        return out;
      }
    }
    for (uint32_t i = 0; i < nodes.size() && out.size() < job.gpus; ++i) {
      if (types_.allows(job, nodes[i], s.view())) {
        s.take_free_on_node(NodeId(i), job.gpus - static_cast<uint32_t>(out.size()), out);
      }
    }
    if (out.size() < job.gpus) {
      return std::nullopt;
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Placement> make_count_placement() {
  return std::make_unique<CountPlacement>();
}
std::unique_ptr<Placement> make_first_fit_placement() {
  return std::make_unique<FirstFitPlacement>();
}

}  // namespace boreas::policy
