#pragma once
// The six placement policies of FGD's evaluation (docs/fragmentation.md), each as the paper's
// simulator scores them, and Boreas' two (`boreas`: FGD's score, its ties broken by the same score
// over the CPU-aware measure; `boreas-cpu`: FGD's score over the CPU-aware measure alone): an
// integer score per node that fits the pod, the highest wins, remaining ties broken uniformly at
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

enum class Policy : uint8_t { kFgd, kBestFit, kPacking, kClustering, kDotProd, kRandom, kBoreas, kBoreasCpu };

std::string_view policy_name(Policy p);
// "fgd", "bestfit", "packing", "clustering", "dotprod", "random", "boreas", "boreas-cpu"; anything else is an error that
// lists the names.
Result<Policy> parse_policy(std::string_view name);
Result<std::vector<Policy>> parse_policy_list(std::string_view csv);

// A node's score for a pod and the GPUs the pod would take there.
struct Scored {
  int64_t score = -1;
  GpuPick pick;
};

// The fragmentation a policy's per-node `frag` holds: the CPU-aware measure for `boreas-cpu`,
// FGD's for the rest (`boreas` reads the CPU-aware one from its own memo).
Measure measure_of(Policy p);

// Scores for one node that fits the pod. `frag_before` is memo.frag(n) (only FGD and Boreas read
// it); FGD's score is 100·sigmoid((before − after)/1000) in the memo's measure.
Scored score_fgd(const Node& n, const PodShape& p, double frag_before, FragMemo& memo);
// FGD's points first, and among nodes FGD scores alike the CPU-aware measure's points: one integer,
// fgd × 101 + cpu. `fgd_before` is FGD's measure of `n`; the GPUs taken are FGD's choice.
Scored score_boreas(const Node& n, const PodShape& p, double fgd_before, FragMemo& fgd, FragMemo& cpu);
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
      : policy_(policy), memo_(mix, measure_of(policy)), cpu_memo_(mix, Measure::kCpuAware), rng_(seed) {}
  // `frag` holds memo().frag of every node (kept current by the caller).
  Choice choose(const std::vector<Node>& nodes, const std::vector<double>& frag, const PodShape& p);
  FragMemo& memo() { return memo_; }

 private:
  Scored score(const Node& n, const PodShape& p, double frag_before);
  uint64_t below(uint64_t n) { return rng_() % n; }

  Policy policy_;
  FragMemo memo_;
  FragMemo cpu_memo_;  // the CPU-aware measure, for `boreas`
  std::mt19937_64 rng_;
};

}  // namespace boreas::frag
