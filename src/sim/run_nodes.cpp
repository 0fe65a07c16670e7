#include "sim/run_nodes.h"

#include <algorithm>
#include <climits>

namespace boreas::sim {

namespace {

bool csv_needs_quotes(std::string_view s) { return s.find_first_of(",\"\n") != std::string_view::npos; }

// The node holding GPU g: GPUs of a node are consecutive and nodes sorted by first_gpu.
uint32_t search_node_of_gpu(const Cluster& cluster, uint32_t g) {
  const auto it = std::upper_bound(cluster.nodes.begin(), cluster.nodes.end(), g,
                                   [](uint32_t v, const Node& n) { return v < n.first_gpu; });
  return static_cast<uint32_t>(it - cluster.nodes.begin() - 1);
}

bool holds(const Node& node, uint32_t g) {
  return g >= node.first_gpu && g < node.first_gpu + node.gpu_count;
}

}  // namespace

void append_csv_field(fmt::memory_buffer& out, std::string_view s) {
  if (!csv_needs_quotes(s)) {
    out.append(s);
    return;
  }
  out.push_back('"');
  for (char c : s) {
    if (c == '"') {
      out.push_back('"');
    }
    out.push_back(c);
  }
  out.push_back('"');
}

RunNodesField::RunNodesField(const Cluster& cluster) : cluster_(cluster), node_of_gpu_(cluster.gpu_count()) {
  for (uint32_t g = 0; g < node_of_gpu_.size(); ++g) {
    node_of_gpu_[g] = search_node_of_gpu(cluster, g);
  }
  names_need_quotes_ =
      std::any_of(cluster.nodes.begin(), cluster.nodes.end(), [](const Node& n) { return csv_needs_quotes(n.name); });
}

// Sorted GPU ids list each node once, in order; a GPU of the last node found needs no lookup, and
// any other GPU lies on a node not listed yet.
template <typename Append>
void RunNodesField::each_node(std::span<const GpuId> sorted, Append append_name) const {
  uint32_t last_node = UINT32_MAX;
  for (GpuId g : sorted) {
    if (last_node != UINT32_MAX && holds(cluster_.nodes[last_node], g.value())) {
      continue;
    }
    last_node = g.value() < node_of_gpu_.size() ? node_of_gpu_[g.value()] : search_node_of_gpu(cluster_, g.value());
    append_name(cluster_.nodes[last_node].name);
  }
}

void RunNodesField::append(fmt::memory_buffer& out, std::span<const GpuId> gpus) {
  std::span<const GpuId> sorted = gpus;
  if (!std::is_sorted(gpus.begin(), gpus.end())) {
    sorted_.assign(gpus.begin(), gpus.end());
    std::sort(sorted_.begin(), sorted_.end());
    sorted = sorted_;
  }
  // A ';' goes before every name but when the field is still empty (as the joined string did).
  if (!names_need_quotes_) {  // ';' needs none: no field does
    const size_t field_start = out.size();
    each_node(sorted, [&](std::string_view name) {
      if (out.size() != field_start) {
        out.push_back(';');
      }
      out.append(name);
    });
    return;
  }
  joined_.clear();
  each_node(sorted, [&](std::string_view name) {
    joined_ += joined_.empty() ? "" : ";";
    joined_ += name;
  });
  append_csv_field(out, joined_);
}

}  // namespace boreas::sim
