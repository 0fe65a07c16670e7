#pragma once
// FGD's arrival process and one replay (docs/fragmentation.md): the pod list is inflated with
// seeded draws until the arrived GPU demand reaches `ratio` x capacity, shuffled, and each pod is
// placed on arrival or fails; nothing ever leaves. The curve samples the cluster each time the
// arrived demand crosses a whole percent of capacity.

#include <array>
#include <cstdint>
#include <vector>

#include "frag/fragmentation.h"
#include "frag/model.h"
#include "frag/policy.h"

namespace boreas::frag {

inline constexpr int kCurveMaxPct = 130;

// The arrival sequence for one seed: the pods, plus seeded draws (with replacement) while their
// GPU demand is below ratio x capacity, in seeded shuffled order. When the pods alone exceed the
// target, a seeded shuffled prefix that just reaches it.
std::vector<PodShape> arrivals(const std::vector<PodShape>& pods, int64_t capacity_milli, double ratio,
                               uint64_t seed);

struct CurvePoint {
  int pct = 0;              // arrived GPU demand, % of capacity (the x of the curve)
  double alloc_pct = 0;     // allocated milli-GPU, % of capacity
  double frag_pct = 0;      // fragmented milli-GPU, % of capacity
  double frag_ratio = 0;    // fragmented / idle milli-GPU, %
  double failed_pct = 0;    // arrived demand that could not be placed, % of capacity
};

struct ReplayResult {
  std::vector<CurvePoint> curve;  // one point per whole percent 0..kCurveMaxPct reached
  uint64_t pods = 0;
  uint64_t failed = 0;
  // Failed pods by kind (Affinity order: no-gpu, share, one, two, four, eight, other), up to the
  // point where the arrived demand reaches capacity.
  std::array<uint64_t, static_cast<size_t>(Affinity::kCount)> failed_by_kind_at_100{};
};

ReplayResult replay(std::vector<Node> nodes, const std::vector<PodShape>& arrivals,
                    const std::vector<TaskClass>& mix, Policy policy, uint64_t seed);

int64_t capacity_milli(const std::vector<Node>& nodes);

}  // namespace boreas::frag
