#include "policy/placement_spot.h"

namespace boreas::policy {

namespace {

class SpotPreference final : public Placement {
 public:
  explicit SpotPreference(std::unique_ptr<Placement> inner) : inner_(std::move(inner)) {}
  std::string_view name() const override { return inner_->name(); }
  bool reads_shape_only() const override { return inner_->reads_shape_only(); }

  std::optional<std::vector<GpuId>> place(const JobSpec& job, const Scratch& s) override {
    split(s.view().cluster());
    if (spot_.empty() || on_demand_.empty()) {
      return inner_->place(job, s);
    }
    // The other side's free GPUs are claimed on a copy of the overlay, so the inner placement
    // sees only the preferred side.
    Scratch preferred = s;
    hide(preferred, job.preemptible ? on_demand_ : spot_);
    if (auto gpus = inner_->place(job, preferred)) {
      return gpus;
    }
    return inner_->place(job, s);
  }

 private:
  void split(const Cluster& cluster) {
    if (cluster_ == &cluster) {
      return;
    }
    cluster_ = &cluster;
    spot_.clear();
    on_demand_.clear();
    for (uint32_t n = 0; n < cluster.nodes.size(); ++n) {
      (cluster.zone_of(cluster.nodes[n]).spot ? spot_ : on_demand_).push_back(NodeId(n));
    }
  }

  static void hide(Scratch& s, const std::vector<NodeId>& nodes) {
    std::vector<GpuId> gpus;
    for (NodeId n : nodes) {
      s.take_free_on_node(n, s.node_free(n), gpus);
    }
    s.claim(gpus);
  }

  std::unique_ptr<Placement> inner_;
  const Cluster* cluster_ = nullptr;
  std::vector<NodeId> spot_, on_demand_;
};

}  // namespace

std::unique_ptr<Placement> with_spot_preference(std::unique_ptr<Placement> inner) {
  return std::make_unique<SpotPreference>(std::move(inner));
}

}  // namespace boreas::policy
