#pragma once
// Picks the replica for a request among those accepting work (docs/serving.md "Routers").

#include <cstdint>
#include <span>
#include <vector>

#include "serving/replica.h"
#include "serving/service_spec.h"

namespace boreas::serving {

// The prefix-aware router's load guard: a replica with more than this many requests above the
// shortest queue is not chosen for its cache (SGLang's cache-aware router has the same kind of
// balance threshold).
inline constexpr size_t kPrefixLoadSlack = 8;

class Router {
 public:
  explicit Router(RouterKind kind) : kind_(kind) {}
  // `candidates` are replica indexes into `replicas`, never empty. Ties go to the lowest index.
  size_t pick(std::span<const size_t> candidates, std::span<const Replica* const> replicas,
              std::span<const uint64_t> blocks);

 private:
  size_t shortest(std::span<const size_t> candidates, std::span<const Replica* const> replicas) const;

  RouterKind kind_;
  size_t next_ = 0;
};

}  // namespace boreas::serving
