#pragma once
// The six placement policies of FGD's evaluation (docs/fragmentation.md), each as the paper's
// simulator scores them, and Boreas' own (`boreas`: FGD's score over the CPU-aware measure): an
// integer score 0..100 per node that fits the pod, the highest wins, ties broken uniformly at
// random with the run's seeded generator (as Kubernetes does).

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "frag/fragmentation.h"
#include "frag/model.h"

namespace boreas::frag {

enum class Policy : uint8_t { kFgd, kBestFit, kPacking, kClustering, kDotProd, kRandom, kBoreas };

std::string_view policy_name(Policy p);
// "fgd", "bestfit", "packing", "clustering", "dotprod", "random", "boreas"; anything else is an error that
// lists the names.
Result<Policy> parse_policy(std::string_view name);
Result<std::vector<Policy>> parse_policy_list(std::string_view csv);

// A node's score for a pod and the GPUs the pod would take there.
struct Scored {
  int64_t score = -1;
  GpuPick pick;
};

// The fragmentation a policy scores with: the CPU-aware measure for `boreas`, FGD's for the rest.
Measure measure_of(Policy p);

// Scores for one node that fits the pod. `frag_before` is memo.frag(n) (only FGD and Boreas read
// it); FGD's score is 100·sigmoid((before − after)/1000) in the memo's measure.
Scored score_fgd(const Node& n, const PodShape& p, double frag_before, FragMemo& memo);
Scored score_bestfit(const Node& n, const PodShape& p);
Scored score_packing(const Node& n, const PodShape& p);
Scored score_clustering(const Node& n, const PodShape& p);
Scored score_dotprod(const Node& n, const PodShape& p);

struct Choice {
  int node = -1;  // -1: no node fits
  GpuPick pick;
};

// Picks a node for each pod under one policy; owns the run's random generator.
class Placer {
 public:
  Placer(Policy policy, const std::vector<TaskClass>& mix, uint64_t seed)
      : policy_(policy), memo_(mix, measure_of(policy)), rng_(seed) {}
  // `frag` holds memo().frag of every node (kept current by the caller).
  Choice choose(const std::vector<Node>& nodes, const std::vector<double>& frag, const PodShape& p);
  FragMemo& memo() { return memo_; }

 private:
  Scored score(const Node& n, const PodShape& p, double frag_before);
  uint64_t below(uint64_t n) { return rng_() % n; }

  Policy policy_;
  FragMemo memo_;
  std::mt19937_64 rng_;
};

}  // namespace boreas::frag
