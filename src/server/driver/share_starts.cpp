// Jobs on a share of one GPU (docs/live.md, "Sharing a GPU"). The policy places whole GPUs only
// and never sees a share job waiting (ClusterState::share_pending); after each round the jobs in
// share_pending start here, highest priority first then by id, each within its queue's ceiling:
// on the GPU already shared that fits its milli and memory and whose node's fragmentation (FGD's
// measure, src/frag, against the jobs the daemon holds now) grows least, else on a free GPU
// chosen the same way.

#include <algorithm>
#include <limits>
#include <optional>

#include "server/driver/controller.h"
#include "server/driver/share_placement.h"
#include "server/jobs/gpu_share.h"
#include "server/jobs/node_resources.h"

namespace boreas::server {

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
