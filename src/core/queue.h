#pragma once
// The queue tree as data: names, parents, weights and per-GPU-type quotas. Its semantics
// (borrowing, reclaim, fair share) belong to policy/; config/ validates specs with locations.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ids.h"

namespace boreas {

// Quota for one GPU type ("*" = any type). Limits are GPU counts; nullopt = unlimited.
struct GpuQuota {
  std::string gpu_type = "*";
  uint32_t guaranteed = 0;
  std::optional<uint32_t> borrow_limit;  // GPUs beyond the guarantee it may borrow
  std::optional<uint32_t> lend_limit;    // GPUs of its guarantee it may lend while idle
};

struct QueueSpec {
  std::string name;
  std::string parent;  // empty for a root
  double weight = 1.0;
  std::vector<GpuQuota> quotas;
  std::vector<std::string> priority_classes;  // allowed classes, highest first; empty = all
};

struct PriorityClass {
  std::string name;
  int32_t value = 0;  // higher runs first and may preempt lower inside a queue
  bool preemptible = true;
};

// A validated tree: parents precede children, ids index `queues`.
struct QueueTree {
  std::vector<QueueSpec> queues;
  std::vector<std::optional<QueueId>> parent;  // parent[i] of queues[i]
  std::vector<PriorityClass> priority_classes;
  std::optional<QueueId> find(std::string_view name) const;
};

}  // namespace boreas
