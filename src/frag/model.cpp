#include "frag/model.h"

#include <algorithm>
#include <string>
#include <string_view>

namespace boreas::frag {

Affinity affinity_of(const PodShape& p) {
  if (p.gpus == 0) {
    return Affinity::kNoGpu;
  }
  if (p.is_share()) {
    return Affinity::kShare;
  }
  switch (p.gpus) {
    case 1: return Affinity::kOne;
    case 2: return Affinity::kTwo;
    case 4: return Affinity::kFour;
    case 8: return Affinity::kEight;
    default: return Affinity::kOther;
  }
}

int64_t Node::gpu_left_total() const {
  int64_t total = 0;
  for (int i = 0; i < gpu_count; ++i) {
    total += gpu_left[i];
  }
  return total;
}

int Node::fully_free_gpus() const {
  int free = 0;
  for (int i = 0; i < gpu_count; ++i) {
    free += gpu_left[i] == kMilli ? 1 : 0;
  }
  return free;
}

bool type_ok(const Node& n, const PodShape& p) {
  if (p.gpus == 0 || p.types == 0) {
    return true;
  }
  return n.type_bit >= 0 && ((p.types >> n.type_bit) & 1u) != 0;
}

bool gpus_fit(const Node& n, const PodShape& p) {
  uint32_t ok = 0;
  for (int i = 0; i < n.gpu_count; ++i) {
    ok += n.gpu_left[i] >= p.gpu_milli ? 1 : 0;
  }
  return ok >= p.gpus;
}

bool fits(const Node& n, const PodShape& p) {
  return n.cpu_left >= p.cpu_milli && n.mem_left >= p.memory_mib && type_ok(n, p) &&
         (p.gpus == 0 || gpus_fit(n, p));
}

GpuPick pick_tightest(const Node& n, const PodShape& p) {
  std::array<int8_t, kMaxGpusPerNode> order{};
  for (int i = 0; i < n.gpu_count; ++i) {
    order[i] = static_cast<int8_t>(i);
  }
  std::stable_sort(order.begin(), order.begin() + n.gpu_count,
                   [&n](int8_t a, int8_t b) { return n.gpu_left[a] < n.gpu_left[b]; });
  GpuPick pick;
  for (int k = 0; k < n.gpu_count && pick.count < p.gpus; ++k) {
    if (n.gpu_left[order[k]] >= p.gpu_milli) {
      pick.gpu[pick.count++] = order[k];
    }
  }
  return pick;
}

void apply(Node& n, const PodShape& p, const GpuPick& pick) {
  n.cpu_left -= p.cpu_milli;
  n.mem_left -= p.memory_mib;
  for (int k = 0; k < pick.count; ++k) {
    n.gpu_left[pick.gpu[k]] = static_cast<int16_t>(n.gpu_left[pick.gpu[k]] - p.gpu_milli);
  }
  ++n.affinity[static_cast<size_t>(affinity_of(p))];
}

Result<std::vector<Node>> nodes_from_cluster(const Cluster& cluster) {
  if (cluster.catalog.size() > 63) {
    return invalid_argument("cluster '" + cluster.name + "': more than 63 GPU types; boreas frag handles 63");
  }
  std::vector<Node> nodes;
  nodes.reserve(cluster.nodes.size());
  for (const auto& spec : cluster.nodes) {
    if (spec.gpu_count > kMaxGpusPerNode) {
      return invalid_argument("node '" + spec.name + "' has " + std::to_string(spec.gpu_count) +
                              " GPUs; boreas frag models at most 8 per node");
    }
    Node n;
    n.cpu_left = n.cpu_cap = spec.cpu_milli;
    n.mem_left = spec.memory_mib;
    n.gpu_count = static_cast<uint8_t>(spec.gpu_count);
    n.type_bit = spec.gpu_type ? static_cast<int32_t>(spec.gpu_type->value()) : -1;
    for (int i = 0; i < n.gpu_count; ++i) {
      n.gpu_left[i] = kMilli;
    }
    nodes.push_back(n);
  }
  return nodes;
}

namespace {

// "V100M16|V100M32" -> bits of the catalog; a name the catalog lacks matches no node.
TypeMask mask_of(std::string_view spec, const Cluster& cluster) {
  TypeMask mask = 0;
  bool any_name = false;
  while (!spec.empty()) {
    const size_t bar = spec.find('|');
    const std::string_view name = spec.substr(0, bar);
    spec = bar == std::string_view::npos ? std::string_view{} : spec.substr(bar + 1);
    if (name.empty()) {
      continue;
    }
    any_name = true;
    if (auto id = cluster.catalog.find(name)) {
      mask |= TypeMask{1} << id->value();
    }
  }
  // Names that are all unknown leave no allowed type: a bit no node has keeps the pod unplaceable.
  return any_name && mask == 0 ? (TypeMask{1} << 63) : mask;
}

}  // namespace

Result<std::vector<PodShape>> pods_from_jobs(const std::vector<JobSpec>& jobs, const SymbolTable& symbols,
                                             const Cluster& cluster) {
  std::vector<PodShape> pods;
  pods.reserve(jobs.size());
  bool any_gpu = false;
  for (const auto& j : jobs) {
    PodShape p;
    p.cpu_milli = j.cpu_milli;
    p.memory_mib = j.memory_mib;
    p.gpus = j.gpus;
    if (j.gpus > kMaxGpusPerNode) {
      return invalid_argument("job '" + std::string(symbols.view(j.name)) + "' asks for " + std::to_string(j.gpus) +
                              " GPUs; boreas frag places pods on one node of at most 8 GPUs");
    }
    p.gpu_milli = j.gpus == 0 ? 0 : j.gpu_milli;
    p.types = j.gpus == 0 || j.gpu_types.empty() ? 0 : mask_of(symbols.view(j.gpu_types), cluster);
    any_gpu = any_gpu || j.gpus > 0;
    pods.push_back(p);
  }
  if (!any_gpu) {
    return invalid_argument("the trace has no GPU pod: boreas frag needs a pod list with GPU requests "
                            "(e.g. data/traces/alibaba-pai-gpu-2023/openb_pod_list_default.csv.gz)");
  }
  return pods;
}

}  // namespace boreas::frag
