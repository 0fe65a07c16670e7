// Jobs on a share of one GPU (docs/live.md, "Sharing a GPU"). The policy places whole GPUs only
// and never sees a share job waiting (ClusterState::share_pending); after each round the jobs in
// share_pending start here, highest priority first then by id, each within its queue's ceiling:
// on the GPU already shared that fits its milli and memory and whose node's fragmentation (FGD's
// measure, src/frag, against the jobs the daemon holds now) grows least, else on a free GPU
// chosen the same way.

#include <algorithm>
#include <limits>
#include <optional>

#include "frag/fragmentation.h"
#include "server/driver/controller.h"
#include "server/jobs/gpu_share.h"
#include "server/jobs/node_resources.h"

namespace boreas::server {
namespace {

constexpr int64_t kNoCpuLimit = std::numeric_limits<int64_t>::max() / 4;  // CPU is not part of the score

struct ShareChoice {
  GpuId gpu;
  ShareSize size;
  bool shared = false;   // beside other shares (else a free GPU)
  double growth = 0;     // the node's fragmentation after − before
  uint32_t left = 0;     // milli left on the GPU after
};

bool better(const ShareChoice& a, const ShareChoice& b) {
  if (a.shared != b.shared) {
    return a.shared;
  }
  if (a.growth != b.growth) {
    return a.growth < b.growth;
  }
  return a.left != b.left ? a.left < b.left : a.gpu < b.gpu;
}

// The jobs in memory as FGD's pods: the target workload the measure weighs fragments against.
std::vector<frag::TaskClass> live_mix(const std::map<uint32_t, LiveJob>& jobs) {
  std::vector<frag::PodShape> pods;
  for (const auto& [id, j] : jobs) {
    if (is_terminal(j.state) || j.request.gpus == 0) {
      continue;
    }
    frag::PodShape p;
    p.gpus = j.request.gpus;
    p.gpu_milli = j.share_milli > 0 ? static_cast<int32_t>(j.share_milli)
                  : j.request.gpu_milli > 0 ? static_cast<int32_t>(j.request.gpu_milli)
                  : j.request.shares_gpu() ? 1 : frag::kMilli;
    pods.push_back(p);
  }
  return pods.empty() ? std::vector<frag::TaskClass>{} : frag::task_mix(pods);
}

// What the share placer reads: the state, the cluster and the drained nodes.
struct ShareView {
  const state::ClusterState& state;
  const Cluster& cluster;
  const std::vector<bool>& drained;
};

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

// The best GPU for `req` now, if any fits.
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

// A share counts milli/1000 GPU against its queue's ceiling, beside the whole GPUs the queue holds.
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

}  // namespace

// A share job's memory must fit one GPU it may run on (of its type when it names one).
Status Controller::validate_share(const SubmitRequest& req) const {
  if (!req.shares_gpu()) {
    return Status::ok();
  }
  if (!executor_.shares_gpus()) {
    return invalid_argument("$.gpus: this daemon's executor gives whole GPUs only (a share of one GPU, "
                            "gpus below 1 or gpu_memory, needs the local executor); ask for whole GPUs");
  }
  const Cluster& c = config_.cluster;
  const auto type = req.gpu_type.empty() ? std::nullopt : c.catalog.find(req.gpu_type);
  uint64_t most = 0;
  for (const Node& n : c.nodes) {
    if (n.gpu_type && n.gpu_count > 0 && (!type || *type == *n.gpu_type)) {
      most = std::max(most, state_->gpu_memory_bytes(GpuId(n.first_gpu)));
    }
  }
  if (most == 0) {
    return invalid_argument("$.gpus: no GPU " + std::string(type ? "of type " + req.gpu_type + " " : "") +
                            "in this cluster has a known memory size (data/gpus.yaml memory_gib), so none can be shared");
  }
  if (req.gpu_memory_bytes > most) {
    return invalid_argument("$.gpu_memory: " + memory_text(req.gpu_memory_bytes) + " is more than the largest GPU " +
                            (type ? "of type " + req.gpu_type + " " : "") + "here has (" + memory_text(most) +
                            "); ask for less, or for a whole GPU");
  }
  return Status::ok();
}

std::vector<LiveJob*> Controller::share_queue() {
  std::vector<LiveJob*> out;
  for (JobId slot : state_->share_pending()) {
    LiveJob* j = find(JobId(slot_job_[slot.value()]));
    if (j != nullptr && j->state == JobState::kPending && !j->stopping) {
      out.push_back(j);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const LiveJob* a, const LiveJob* b) {
    return a->priority != b->priority ? a->priority > b->priority : a->id < b->id;
  });
  return out;
}

void Controller::start_shares() {
  std::vector<LiveJob*> waiting = share_queue();
  if (waiting.empty()) {
    return;
  }
  const std::vector<frag::TaskClass> mix = live_mix(jobs_);
  const ShareView view{*state_, config_.cluster, drained_};
  for (LiveJob* j : waiting) {
    const std::optional<ShareChoice> ch = choose_share(view, j->request, mix);
    if (!ch) {
      j->reason = "no fit: no undrained GPU" +
                  std::string(j->request.gpu_type.empty() ? "" : " of type " + j->request.gpu_type) +
                  " has room for " + describe_request(j->request) +
                  " now (a shared GPU's shares never pass its compute or memory)";
      j->reason_kind = "no-fit";
      continue;
    }
    const Symbol queue = symbols_.find(j->request.queue);
    if (auto why = over_ceiling(config_.queues, *state_, queue, j->request.queue, ch->size.milli)) {
      j->reason = std::move(*why);
      j->reason_kind = "quota-exceeded";
      continue;
    }
    const NodeId node = state_->node_of(ch->gpu);
    j->placement = {{static_cast<int32_t>(node.value()), {ch->gpu.value() - config_.cluster.nodes[node.value()].first_gpu}}};
    NodeLoad load(config_.cluster, jobs_);
    if (auto why = load.admit(*j, drained_)) {
      j->reason = std::move(*why);
      j->reason_kind = "no-fit";
      continue;
    }
    j->share_milli = ch->size.milli;
    j->share_bytes = ch->size.bytes;
    j->reason_kind.clear();
    std::vector<LiveJob*> one{j};
    launch_all(one);
  }
}

}  // namespace boreas::server
