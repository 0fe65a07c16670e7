#pragma once
// A scratch overlay on a ClusterView for one scheduling round: GPUs claimed or released earlier
// in the same Plan are seen by later placements, without copying per-GPU state.

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "state/cluster_view.h"

namespace boreas::policy {

// An open-addressing map from a node or rack index to V, for the few a round touches: no
// allocation per entry (a round releases and claims many GPUs on the same few nodes). Entries
// are never removed but all at once (clear, which keeps the room and resets only the slots used);
// V's default value means "no change".
template <typename V>
class TouchedMap {
 public:
  const V* find(uint32_t key) const {
    if (keys_.empty()) {
      return nullptr;
    }
    for (size_t i = slot(key);; i = (i + 1) & (keys_.size() - 1)) {
      if (keys_[i] == key) {
        return &values_[i];
      }
      if (keys_[i] == kEmpty) {
        return nullptr;
      }
    }
  }
  V& get(uint32_t key) {
    if (2 * (size_ + 1) > keys_.size()) {
      grow();
    }
    size_t i = slot(key);
    while (keys_[i] != key && keys_[i] != kEmpty) {
      i = (i + 1) & (keys_.size() - 1);
    }
    if (keys_[i] == kEmpty) {
      keys_[i] = key;
      ++size_;
      used_.push_back(static_cast<uint32_t>(i));
    }
    return values_[i];
  }
  void clear() {
    for (uint32_t i : used_) {
      keys_[i] = kEmpty;
      values_[i] = V{};
    }
    used_.clear();
    size_ = 0;
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  size_t slot(uint32_t key) const { return (key * 0x9E3779B1u) & (keys_.size() - 1); }
  void grow() {
    std::vector<uint32_t> keys = std::move(keys_);
    std::vector<V> values = std::move(values_);
    keys_.assign(keys.empty() ? 16 : 2 * keys.size(), kEmpty);
    values_.assign(keys_.size(), V{});
    used_.clear();
    size_ = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] != kEmpty) {
        get(keys[i]) = values[i];
      }
    }
  }

  std::vector<uint32_t> keys_;
  std::vector<V> values_;
  std::vector<uint32_t> used_;  // the slots holding keys, in insertion order
  uint32_t size_ = 0;
};

class Scratch {
  struct NodeChange;
  struct SavedNode;

 public:
  // What a scratch allocates, handed on emptied to the next one (a caller that makes a scratch every
  // round keeps it, so that a round allocates none of it anew).
  struct Storage;
  explicit Scratch(const state::ClusterView& view) : view_(view), free_(view.free_gpus()) {}
  Scratch(const state::ClusterView& view, Storage&& kept);
  // This scratch's storage, emptied (O(what it touched)); the scratch is not to be used after.
  Storage take_storage();

  const state::ClusterView& view() const { return view_; }
  uint32_t total_free() const { return free_; }
  bool gpu_free(GpuId gpu) const;
  uint32_t node_free(NodeId node) const;
  uint32_t rack_free(RackId rack) const;
  bool touched(NodeId node) const {
    const NodeChange* c = nodes_.find(node.value());
    return c != nullptr && c->touched;
  }
  // Nodes whose free count differs from the state's, in first-touch order.
  std::span<const NodeId> touched_nodes() const { return touched_; }

  // Forgets that the nodes touched after the first `mark` were touched; each must be back at the
  // state's free count (GPUs released and claimed again), as if never touched.
  void forget_touched_since(size_t mark);

  void claim(std::span<const GpuId> gpus);
  void release(std::span<const GpuId> gpus);
  // Touches the GPUs' nodes as releasing and claiming them back would (each not touched yet is
  // listed, in the GPUs' order), without changing a free count.
  void touch(std::span<const GpuId> gpus);
  // A trial: the changes after begin_trial() are taken back by end_trial() as claiming back what
  // was released (and releasing what was claimed) would, the nodes they touched staying touched;
  // each node's and rack's state is restored once, not each GPU changed again.
  void begin_trial();
  void end_trial();
  // Appends up to `count` free GPUs of `node` to `out`, lowest index first; returns how many.
  uint32_t take_free_on_node(NodeId node, uint32_t count, std::vector<GpuId>& out) const;

  // A gang's shape as a placement that reads only that of a job sees it (Placement::reads_shape_only).
  struct Shape {
    uint32_t gpus = 0;
    uint32_t gpu_types = 0;  // the Symbol's index
    bool preemptible = true;
    bool operator==(const Shape&) const = default;
  };
  // Shapes refused since the scratch last changed (place_recalled, placement.h); any claim, release
  // or forget clears them.
  bool refused_before(const Shape& shape) const;
  void remember_refused(const Shape& shape) const { refused_.push_back(shape); }

 private:
  // GPUs of a node with at most this many keep their overrides in the node's mask.
  static constexpr uint32_t kMaskGpus = 64;
  struct NodeChange {
    int32_t delta = 0;     // free count minus the state's
    bool touched = false;  // listed in touched_
    uint64_t flipped = 0;  // GPU i (from the node's first) has the opposite free flag of the state's
    uint32_t trial = 0;    // the trial that saved its state (trial_saved_), 0: none
  };
  // What a trial changed: each node's and rack's state before it, the wide GPUs it flipped.
  struct SavedNode {
    uint32_t node = 0;
    int32_t delta = 0;
    uint64_t flipped = 0;
  };
  void change(GpuId gpu, bool now_free);
  void save_for_trial(NodeId node, RackId rack, NodeChange& c);
  bool flipped(const Node& node, const NodeChange* c, GpuId gpu) const;

  const state::ClusterView& view_;
  uint32_t free_;
  TouchedMap<NodeChange> nodes_;
  TouchedMap<int32_t> rack_delta_;
  std::unordered_map<uint32_t, bool> wide_flipped_;  // GPUs of nodes past kMaskGpus
  std::vector<NodeId> touched_;
  uint32_t trial_ = 0;      // the open trial's number; 0: none open
  uint32_t trials_ = 0;     // trials begun
  uint32_t trial_free_ = 0;
  std::vector<SavedNode> trial_nodes_;
  std::vector<std::pair<uint32_t, int32_t>> trial_racks_;  // (rack, delta before), each rack once
  std::vector<GpuId> trial_wide_;                           // GPUs of wide nodes flipped
  mutable std::vector<Shape> refused_;  // a memo: placements see the scratch as const
};

struct Scratch::Storage {
  TouchedMap<NodeChange> nodes;
  TouchedMap<int32_t> rack_delta;
  std::vector<NodeId> touched;
  std::vector<SavedNode> trial_nodes;
  std::vector<std::pair<uint32_t, int32_t>> trial_racks;
  std::vector<GpuId> trial_wide;
  std::vector<Shape> refused;
};

}  // namespace boreas::policy
