// The frag placement: FGD's score over whole GPUs with a job-size mix learned online.
#include "policy/placement_frag.h"

#include <algorithm>
#include <unordered_set>

#include "policy/placement_util.h"

namespace boreas::policy {

void SizeMix::observe(uint32_t gpus) {
  if (gpus > 0) {
    ++count_by_size_[gpus];
    ++total_;
  }
}

double SizeMix::frag(uint32_t free, uint32_t count) const {
  if (total_ == 0) {
    return 0;
  }
  int64_t stranded = 0;  // jobs of the classes that cannot start here
  for (const auto& [size, jobs] : count_by_size_) {
    stranded += free < std::min(size, count) ? jobs : 0;
  }
  return static_cast<double>(free) * static_cast<double>(stranded) / static_cast<double>(total_);
}

namespace {

struct Candidate {
  NodeId node;
  double gain = 0;     // fragmentation before − after: higher is better
  uint32_t left = 0;   // free GPUs after: fewer is better on equal gain
};

bool better(const Candidate& a, const Candidate& b) {
  return a.gain != b.gain ? a.gain > b.gain : a.left < b.left;
}

class FragPlacement final : public Placement {
 public:
  FragPlacement() : pack_(make_pack_placement()) {}
  std::string_view name() const override { return "frag"; }

  std::optional<std::vector<GpuId>> place(const JobSpec& job, const Scratch& s) override {
    if (seen_.insert(job.id.value()).second) {
      mix_.observe(job.gpus);
    }
    if (job.gpus == 0 || job.gpus > s.total_free()) {
      return pack_->place(job, s);
    }
    std::optional<Candidate> best = best_node(job, s);
    if (!best) {
      return pack_->place(job, s);  // no node holds the gang alone: spread as pack does
    }
    std::vector<GpuId> out;
    s.take_free_on_node(best->node, job.gpus, out);
    return out;
  }

 private:
  void consider(NodeId n, uint32_t free, const JobSpec& job, const Scratch& s, std::optional<Candidate>& best) {
    const Node& node = s.view().cluster().nodes[n.value()];
    if (free < job.gpus || !types_.allows(job, node, s.view())) {
      return;
    }
    const Candidate c{n, mix_.frag(free, node.gpu_count) - mix_.frag(free - job.gpus, node.gpu_count),
                      free - job.gpus};
    if (!best || better(c, *best)) {
      best = c;
    }
  }

  // Touched nodes first (their free count is the scratch's), then the free index by type.
  std::optional<Candidate> best_node(const JobSpec& job, const Scratch& s) {
    std::optional<Candidate> best;
    for (NodeId n : s.touched_nodes()) {
      consider(n, s.node_free(n), job, s, best);
    }
    const auto& index = s.view().state().free_index();
    for (GpuTypeId t : types_.allowed(job, s.view())) {
      for (uint32_t f = job.gpus; f <= index.max_free(t); ++f) {
        for (NodeId n : index.nodes_with(t, f)) {
          if (!s.touched(n)) {
            consider(n, f, job, s, best);
          }
        }
      }
    }
    return best;
  }

  std::unique_ptr<Placement> pack_;
  SizeMix mix_;
  std::unordered_set<uint32_t> seen_;  // job ids already counted in the mix
};

}  // namespace

std::unique_ptr<Placement> make_frag_placement() {
  return std::make_unique<FragPlacement>();
}

}  // namespace boreas::policy
