#include "server/jobs/node_resources.h"

#include <algorithm>
#include <utility>

namespace boreas::server {
namespace {

constexpr int64_t kDefaultCpuMilli = 1000;  // a CPU-only job without `cpus`

int64_t share(int64_t total, uint32_t gpus, uint32_t of) { return of == 0 ? 0 : total * gpus / of; }

std::string cpus_text(int64_t milli) {
  return milli % 1000 == 0 ? std::to_string(milli / 1000) : std::to_string(static_cast<double>(milli) / 1000);
}

}  // namespace

JobResources job_resources(const SubmitRequest& r, const Node& node) {
  JobResources out;
  if (r.gpu_milli > 0) {  // a share of one GPU: that part of one GPU's share (docs/live.md, "Sharing a GPU")
    out = {share(node.cpu_milli, 1, node.gpu_count) * r.gpu_milli / 1000,
           share(node.memory_mib, 1, node.gpu_count) * r.gpu_milli / 1000};
  } else if (r.gpus > 0) {
    out = {share(node.cpu_milli, r.gpus, node.gpu_count), share(node.memory_mib, r.gpus, node.gpu_count)};
  } else {
    const int64_t cpus = std::min(kDefaultCpuMilli, node.cpu_milli);
    out = {cpus, node.cpu_milli == 0 ? 0 : node.memory_mib * cpus / node.cpu_milli};
  }
  out.cpu_milli = r.cpu_milli > 0 ? r.cpu_milli : out.cpu_milli;
  out.memory_mib = r.memory_mib > 0 ? r.memory_mib : out.memory_mib;
  return out;
}

JobResources held_on(const SubmitRequest& r, const JobNode& p, const Node& node) {
  if (r.gpus == 0 || r.gpus == p.gpus.size()) {
    return job_resources(r, node);
  }
  SubmitRequest part = r;  // a gang's share of this node follows the GPUs it holds here
  part.gpus = static_cast<uint32_t>(p.gpus.size());
  return job_resources(part, node);
}

Status check_resources_fit(const SubmitRequest& r, const Cluster& cluster) {
  int64_t cpus = 0;
  int64_t memory = 0;
  bool uncounted_cpus = false;
  bool uncounted_memory = false;
  for (const Node& n : cluster.nodes) {
    cpus = std::max(cpus, n.cpu_milli);
    memory = std::max(memory, n.memory_mib);
    uncounted_cpus = uncounted_cpus || n.cpu_milli == 0;
    uncounted_memory = uncounted_memory || n.memory_mib == 0;
  }
  if (r.cpu_milli > cpus && !uncounted_cpus) {
    return invalid_argument("$.cpus: " + cpus_text(r.cpu_milli) + " CPUs can never fit: the largest node has " +
                            cpus_text(cpus));
  }
  if (r.memory_mib > memory && !uncounted_memory) {
    return invalid_argument("$.memory: " + std::to_string(r.memory_mib) +
                            " MiB can never fit: the largest node has " + std::to_string(memory) + " MiB");
  }
  return Status::ok();
}

NodeLoad::NodeLoad(const Cluster& cluster, const std::map<uint32_t, LiveJob>& jobs)
    : cluster_(cluster), used_(cluster.nodes.size()) {
  for (const auto& [id, j] : jobs) {
    if (j.state != JobState::kRunning) {
      continue;
    }
    for (const JobNode& p : j.placement) {
      if (p.node >= 0 && static_cast<size_t>(p.node) < used_.size()) {
        const auto n = static_cast<size_t>(p.node);
        hold(n, held_on(j.request, p, cluster_.nodes[n]));
      }
    }
  }
}

void NodeLoad::hold(size_t node, const JobResources& r) {
  used_[node].cpu_milli += r.cpu_milli;
  used_[node].memory_mib += r.memory_mib;
}

bool NodeLoad::fits(size_t node, const JobResources& r) const {
  const Node& n = cluster_.nodes[node];
  return (n.cpu_milli == 0 || used_[node].cpu_milli + r.cpu_milli <= n.cpu_milli) &&
         (n.memory_mib == 0 || used_[node].memory_mib + r.memory_mib <= n.memory_mib);
}

std::string NodeLoad::shortfall(size_t node, const JobResources& r) const {
  const Node& n = cluster_.nodes[node];
  return "needs " + cpus_text(r.cpu_milli) + " CPUs and " + std::to_string(r.memory_mib) + " MiB on " + n.name +
         ", where running jobs hold " + cpus_text(used_[node].cpu_milli) + " of " + cpus_text(n.cpu_milli) +
         " CPUs and " + std::to_string(used_[node].memory_mib) + " of " + std::to_string(n.memory_mib) + " MiB";
}

std::optional<size_t> NodeLoad::first_with_room(const SubmitRequest& r, const std::vector<bool>& drained) const {
  for (size_t n = 0; n < cluster_.nodes.size(); ++n) {
    if (!drained[n] && fits(n, job_resources(r, cluster_.nodes[n]))) {
      return n;
    }
  }
  return std::nullopt;
}

std::optional<std::string> NodeLoad::admit(LiveJob& job, const std::vector<bool>& drained) {
  const SubmitRequest& r = job.request;
  if (r.gpus == 0) {
    const std::optional<size_t> node = first_with_room(r, drained);
    if (!node) {
      job.placement.clear();
      return "waiting for CPUs or memory: no undrained node has room beside its running jobs; on the first "
             "one it " + shortfall(0, job_resources(r, cluster_.nodes[0]));
    }
    job.placement = {JobNode{static_cast<int32_t>(*node), {}}};
  }
  std::vector<std::pair<size_t, JobResources>> holds;
  for (const JobNode& p : job.placement) {  // a gang needs room on every node it spans
    const auto n = static_cast<size_t>(std::max(p.node, 0));
    const JobResources held = held_on(r, p, cluster_.nodes[n]);
    if (!fits(n, held)) {
      job.placement.clear();
      return "waiting for CPUs or memory: it " + shortfall(n, held);
    }
    holds.emplace_back(n, held);
  }
  for (const auto& [n, held] : holds) {
    hold(n, held);
  }
  return std::nullopt;
}

}  // namespace boreas::server
