#pragma once
// The placement part: which free GPUs a job gets. Placements see GPUs already claimed earlier in
// the same Plan through the Scratch overlay.
//   count        — any free GPUs (what published simulators model: only the count matters)
//   first-fit    — lowest-numbered node with room; larger gangs fill nodes in index order
//   pack         — best fit: one node if the gang fits in a node (the fullest that still fits),
//                  else the fewest nodes, inside one rack when a rack has room
//   consolidated — a gang of ≤ one node must sit in one node; larger gangs take whole free nodes
//                  under one leaf switch (rack), or wait

#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "policy/scratch.h"

namespace boreas::policy {

// Which GPU types a job may use (JobSpec::gpu_types, '|'-separated names or aliases).
class TypeFilter {
 public:
  // The allowed types' ids, or every type of the cluster when the job names none.
  const std::vector<GpuTypeId>& allowed(const JobSpec& job, const state::ClusterView& view);
  bool allows(const JobSpec& job, const Node& node, const state::ClusterView& view);
  // Whether the node's GPU type is among `allowed` (allowed()'s answer, read once for many nodes).
  static bool allows(const std::vector<GpuTypeId>& allowed, const Node& node);

 private:
  std::unordered_map<uint32_t, std::vector<GpuTypeId>> cache_;  // by gpu_types symbol
};

class Placement {
 public:
  virtual ~Placement() = default;
  virtual std::string_view name() const = 0;
  // GPUs for the whole gang, or nullopt when it does not fit now. Never partial.
  virtual std::optional<std::vector<GpuId>> place(const JobSpec& job, const Scratch& scratch) = 0;
  // Whether place() reads of the job only its GPU count, its type filter and whether it is
  // preemptible, and of the scratch only its free GPUs and touched order (no time, no history), so
  // that a refusal holds until the scratch changes.
  virtual bool reads_shape_only() const { return false; }

 protected:
  TypeFilter types_;
};

// place(), answering nullopt without placing when a gang of the same shape was refused on the
// same scratch since its last change (a round tries many waiting gangs of a few shapes between
// starts); the plain place() for placements that read more than the shape.
std::optional<std::vector<GpuId>> place_recalled(Placement& placement, const JobSpec& job, const Scratch& scratch);

std::unique_ptr<Placement> make_count_placement();
std::unique_ptr<Placement> make_first_fit_placement();
std::unique_ptr<Placement> make_pack_placement();
std::unique_ptr<Placement> make_consolidated_placement();

}  // namespace boreas::policy
