#include "policy/scratch.h"

#include <algorithm>
#include <cassert>

namespace boreas::policy {

bool Scratch::flipped(const Node& node, const NodeChange* c, GpuId gpu) const {
  if (node.gpu_count > kMaskGpus) {
    const auto it = wide_flipped_.find(gpu.value());
    return it != wide_flipped_.end() && it->second;
  }
  return c != nullptr && ((c->flipped >> (gpu.value() - node.first_gpu)) & 1) != 0;
}

bool Scratch::gpu_free(GpuId gpu) const {
  const NodeId node = view_.state().node_of(gpu);
  const bool flip = flipped(view_.cluster().nodes[node.value()], nodes_.find(node.value()), gpu);
  return view_.state().gpu_free(gpu) != flip;
}

uint32_t Scratch::node_free(NodeId node) const {
  const NodeChange* c = nodes_.find(node.value());
  const int32_t delta = c == nullptr ? 0 : c->delta;
  return static_cast<uint32_t>(static_cast<int32_t>(view_.state().node_free(node)) + delta);
}

uint32_t Scratch::rack_free(RackId rack) const {
  const int32_t* d = rack_delta_.find(rack.value());
  const int32_t delta = d == nullptr ? 0 : *d;
  return static_cast<uint32_t>(static_cast<int32_t>(view_.state().rack_free(rack)) + delta);
}

bool Scratch::refused_before(const Shape& shape) const {
  return std::find(refused_.begin(), refused_.end(), shape) != refused_.end();
}

void Scratch::change(GpuId gpu, bool now_free) {
  assert(gpu_free(gpu) != now_free && "claiming a taken GPU or releasing a free one");
  refused_.clear();
  const NodeId node = view_.state().node_of(gpu);
  const Node& n = view_.cluster().nodes[node.value()];
  NodeChange& c = nodes_.get(node.value());
  if (trial_ != 0 && c.trial != trial_) {
    save_for_trial(node, n.rack, c);
  }
  if (n.gpu_count > kMaskGpus) {
    bool& f = wide_flipped_[gpu.value()];
    f = !f;
    if (trial_ != 0) {
      trial_wide_.push_back(gpu);
    }
  } else {
    c.flipped ^= uint64_t{1} << (gpu.value() - n.first_gpu);
  }
  const int32_t step = now_free ? 1 : -1;
  c.delta += step;
  if (!c.touched) {
    c.touched = true;
    touched_.push_back(node);
  }
  rack_delta_.get(n.rack.value()) += step;
  free_ = static_cast<uint32_t>(static_cast<int32_t>(free_) + step);
}

void Scratch::save_for_trial(NodeId node, RackId rack, NodeChange& c) {
  c.trial = trial_;
  trial_nodes_.push_back(SavedNode{node.value(), c.delta, c.flipped});
  const bool saved = std::any_of(trial_racks_.begin(), trial_racks_.end(),
                                 [&](const auto& r) { return r.first == rack.value(); });
  if (!saved) {
    const int32_t* d = rack_delta_.find(rack.value());
    trial_racks_.emplace_back(rack.value(), d == nullptr ? 0 : *d);
  }
}

void Scratch::begin_trial() {
  assert(trial_ == 0 && "a trial is open");
  trial_ = ++trials_;
  trial_free_ = free_;
  trial_nodes_.clear();
  trial_racks_.clear();
  trial_wide_.clear();
}

void Scratch::end_trial() {
  assert(trial_ != 0 && "no trial is open");
  refused_.clear();
  for (const SavedNode& saved : trial_nodes_) {
    NodeChange& c = nodes_.get(saved.node);
    c.delta = saved.delta;
    c.flipped = saved.flipped;
    c.trial = 0;
  }
  for (const auto& [rack, delta] : trial_racks_) {
    rack_delta_.get(rack) = delta;
  }
  for (GpuId g : trial_wide_) {
    bool& f = wide_flipped_[g.value()];
    f = !f;
  }
  free_ = trial_free_;
  trial_ = 0;
}

Scratch::Scratch(const state::ClusterView& view, Storage&& kept)
    : view_(view),
      free_(view.free_gpus()),
      nodes_(std::move(kept.nodes)),
      rack_delta_(std::move(kept.rack_delta)),
      touched_(std::move(kept.touched)),
      trial_nodes_(std::move(kept.trial_nodes)),
      trial_racks_(std::move(kept.trial_racks)),
      trial_wide_(std::move(kept.trial_wide)),
      refused_(std::move(kept.refused)) {}

Scratch::Storage Scratch::take_storage() {
  nodes_.clear();
  rack_delta_.clear();
  touched_.clear();
  trial_nodes_.clear();
  trial_racks_.clear();
  trial_wide_.clear();
  refused_.clear();
  return Storage{std::move(nodes_), std::move(rack_delta_), std::move(touched_), std::move(trial_nodes_),
                 std::move(trial_racks_), std::move(trial_wide_), std::move(refused_)};
}

void Scratch::forget_touched_since(size_t mark) {
  refused_.clear();
  for (size_t i = mark; i < touched_.size(); ++i) {
    NodeChange& c = nodes_.get(touched_[i].value());
    assert(c.touched && c.delta == 0 && "forgetting a node whose free count changed");
    c.touched = false;
  }
  touched_.resize(std::min(mark, touched_.size()));
}

void Scratch::claim(std::span<const GpuId> gpus) {
  for (GpuId g : gpus) {
    change(g, false);
  }
}

void Scratch::release(std::span<const GpuId> gpus) {
  for (GpuId g : gpus) {
    change(g, true);
  }
}

void Scratch::touch(std::span<const GpuId> gpus) {
  refused_.clear();
  for (GpuId g : gpus) {
    const NodeId node = view_.state().node_of(g);
    NodeChange& c = nodes_.get(node.value());
    if (!c.touched) {
      c.touched = true;
      touched_.push_back(node);
    }
  }
}

uint32_t Scratch::take_free_on_node(NodeId node, uint32_t count, std::vector<GpuId>& out) const {
  const Node& n = view_.cluster().nodes[node.value()];
  const NodeChange* c = nodes_.find(node.value());
  uint32_t taken = 0;
  for (uint32_t i = 0; i < n.gpu_count && taken < count; ++i) {
    const GpuId g(n.first_gpu + i);
    if (view_.state().gpu_free(g) != flipped(n, c, g)) {
      out.push_back(g);
      ++taken;
    }
  }
  return taken;
}

}  // namespace boreas::policy
