#include "server/driver/share_placement.h"

#include <algorithm>
#include <limits>

namespace boreas::server {
namespace {

constexpr int64_t kNoCpuLimit = std::numeric_limits<int64_t>::max() / 4;  // CPU is not part of the score

bool better(const ShareChoice& a, const ShareChoice& b) {
  if (a.shared != b.shared) {
    return a.shared;
  }
  if (a.growth != b.growth) {
    return a.growth < b.growth;
  }
  return a.left != b.left ? a.left < b.left : a.gpu < b.gpu;
}

}  // namespace

std::vector<frag::TaskClass> live_mix(const std::map<uint32_t, LiveJob>& jobs) {
  std::vector<frag::PodShape> pods;
  for (const auto& [id, j] : jobs) {
    if (is_terminal(j.state) || j.request.gpus == 0) {
      continue;
    }
    frag::PodShape p;
    p.gpus = j.request.gpus;
    // A share placed: its milli; one asked by milli: that; one asked by memory only and not placed
    // yet: its milli depends on the GPU, so 1 (a class that fits any GPU with room).
    p.gpu_milli = j.share_milli > 0 ? static_cast<int32_t>(j.share_milli)
                  : j.request.gpu_milli > 0 ? static_cast<int32_t>(j.request.gpu_milli)
                  : j.request.shares_gpu() ? 1 : frag::kMilli;
    pods.push_back(p);
  }
  return pods.empty() ? std::vector<frag::TaskClass>{} : frag::task_mix(pods);
}

namespace {

// FGD's node view of node `n`: milli free per GPU (0 when held whole or drained), CPU unlimited.
frag::Node frag_node(const ShareView& v, size_t n) {
  const Node& node = v.cluster.nodes[n];
  frag::Node out;
  out.cpu_left = out.cpu_cap = kNoCpuLimit;
  out.type_bit = node.gpu_type ? static_cast<int32_t>(node.gpu_type->value()) : -1;
  out.gpu_count = static_cast<uint8_t>(node.gpu_count);
  for (uint32_t g = 0; g < node.gpu_count; ++g) {
    const GpuId gpu(node.first_gpu + g);
    const bool usable = !v.drained[n] && !v.state.node_down(NodeId(static_cast<uint32_t>(n))) &&
                        !v.state.gpu_owner(gpu).valid();
    out.gpu_left[g] = static_cast<int16_t>(usable ? frag::kMilli - static_cast<int32_t>(v.state.shares().milli_used(gpu)) : 0);
  }
  return out;
}

// The share `req` takes on `gpu`, when it may go there (a free or shared GPU with room).
std::optional<ShareChoice> candidate(const ShareView& v, const SubmitRequest& req, GpuId gpu) {
  const bool shared = v.state.shares().shared(gpu);
  if (!shared && !v.state.gpu_free(gpu)) {
    return std::nullopt;
  }
  const uint64_t capacity = v.state.gpu_memory_bytes(gpu);
  const ShareSize size = share_on(req, capacity);
  if (size.milli == 0 || !v.state.shares().fits(gpu, size.milli, size.bytes, capacity)) {
    return std::nullopt;
  }
  return ShareChoice{gpu, size, shared, 0, frag::kMilli - v.state.shares().milli_used(gpu) - size.milli};
}

}  // namespace

std::optional<ShareChoice> choose_share(const ShareView& v, const SubmitRequest& req,
                                        const std::vector<frag::TaskClass>& mix) {
  const auto type = req.gpu_type.empty() ? std::nullopt : v.cluster.catalog.find(req.gpu_type);
  std::optional<ShareChoice> best;
  for (size_t n = 0; n < v.cluster.nodes.size(); ++n) {
    const Node& node = v.cluster.nodes[n];
    if (v.drained[n] || node.gpu_count == 0 || (type && node.gpu_type != type)) {
      continue;
    }
    const bool modelled = node.gpu_count <= frag::kMaxGpusPerNode;  // else ties go to the tightest GPU
    const frag::Node before = modelled ? frag_node(v, n) : frag::Node{};
    const double frag_before = modelled ? frag::node_frag(before, mix) : 0;
    for (uint32_t g = 0; g < node.gpu_count; ++g) {
      std::optional<ShareChoice> ch = candidate(v, req, GpuId(node.first_gpu + g));
      if (ch && modelled) {
        frag::Node after = before;
        after.gpu_left[g] = static_cast<int16_t>(after.gpu_left[g] - static_cast<int32_t>(ch->size.milli));
        ch->growth = frag::node_frag(after, mix) - frag_before;
      }
      if (ch && (!best || better(*ch, *best))) {
        best = ch;
      }
    }
  }
  return best;
}

namespace {

// The queue's ceiling in milli-GPU (its quotas' guarantees plus borrow limits, over all types);
// none when the queue has no quota or a type may borrow without limit.
std::optional<uint64_t> ceiling_milli(const std::optional<QueueTree>& queues, const std::string& queue) {
  const std::optional<QueueId> id = queues ? queues->find(queue) : std::nullopt;
  const QueueSpec* q = id ? &queues->queues[id->value()] : nullptr;
  if (q == nullptr || q->quotas.empty()) {
    return std::nullopt;
  }
  uint64_t gpus = 0;
  for (const GpuQuota& quota : q->quotas) {
    if (!quota.borrow_limit) {
      return std::nullopt;
    }
    gpus += quota.guaranteed + *quota.borrow_limit;
  }
  return gpus * frag::kMilli;
}

}  // namespace

std::optional<std::string> over_ceiling(const std::optional<QueueTree>& queues, const state::ClusterState& state,
                                        Symbol queue_symbol, const std::string& queue, uint32_t milli) {
  const auto ceiling = ceiling_milli(queues, queue);
  if (!ceiling) {
    return std::nullopt;
  }
  const uint64_t used = uint64_t{state.queue_gpus_in_use(queue_symbol)} * frag::kMilli +
                        state.queue_share_milli(queue_symbol);
  if (used + milli <= *ceiling) {
    return std::nullopt;
  }
  return "quota-exceeded: queue " + queue + " holds " + std::to_string(used) + " milli-GPU; " +
         std::to_string(milli) + " more would pass its ceiling of " + std::to_string(*ceiling);
}

}  // namespace boreas::server
