#pragma once
// `frag`: FGD's fragmentation-gradient score for the training twin, where jobs ask for whole GPUs
// (docs/fragmentation.md, "The frag placement in the twin"). The target workload is the mix of
// job sizes (GPUs asked) seen so far, learned online: a job counts once, the first time it is
// offered to the placement; the future is never read. A node with `free` of `count` GPUs is a
// fragment for a size class that cannot start there (free < size, or free < count for a gang
// larger than a node, which needs whole nodes); the node's fragmentation is that idle GPU weighted
// by the classes' popularity. A job that fits one node goes to the node whose fragmentation
// drops most (ties: the tightest fit, then the first found); a larger gang is placed as `pack`.

#include <cstdint>
#include <map>
#include <memory>

#include "policy/placement.h"

namespace boreas::policy {

// Popularity of job sizes (GPUs asked), counted as jobs arrive.
class SizeMix {
 public:
  void observe(uint32_t gpus);
  // Popularity-weighted idle GPUs of a node with `free` of `count` GPUs that no class can start on.
  double frag(uint32_t free, uint32_t count) const;
  int64_t jobs() const { return total_; }

 private:
  std::map<uint32_t, int64_t> count_by_size_;
  int64_t total_ = 0;
};

std::unique_ptr<Placement> make_frag_placement();

}  // namespace boreas::policy
