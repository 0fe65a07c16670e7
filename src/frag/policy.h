#pragma once
// The six placement policies of FGD's evaluation (docs/fragmentation.md), each as the paper's
// simulator scores them, and Boreas' two (`boreas`: FGD's score over FGD's measure plus the GPU a
// node's CPU cannot serve, counting the type-restricted demand a pod displaces, its ties broken by
// the score over the CPU-aware measure; `boreas-cpu`: FGD's score over the CPU-aware measure
// alone): an integer score per node that fits the pod, the highest wins. Ties are broken as the FGD repo's
// scheduler breaks them (tie_break_of): its Kubernetes fork picks, among the nodes with the highest
// score, the one whose name sorts first, and the names carry a random rank drawn once per run, so a
// tie goes to the node of lowest rank in a seeded permutation fixed for the whole run.

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "frag/fragmentation.h"
#include "frag/model.h"
#include "frag/type_pressure.h"

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

// What `boreas` adds to FGD (docs/fragmentation.md, "Beating FGD"); the defaults are the policy,
// and the switches the alternatives that were measured against it.
struct BoreasDesign {
  bool type_pressure = true;     // restricted GPU demand a pod displaces counts as fragment after it
  bool dynamic_pressure = true;  // that pressure from the demand still to come (pressure_now)
  bool stranded = true;          // the primary measure is Measure::kStranded instead of FGD's
  bool rank_ties = true;         // remaining ties go by the seeded node order, not a fresh draw
};

// The fragmentation a policy's per-node `frag` holds: the CPU-aware measure for `boreas-cpu`,
// kStranded for `boreas` (FGD's with `design.stranded` off; it reads the CPU-aware one from its own
// memo), FGD's for the rest.
Measure measure_of(Policy p, const BoreasDesign& design);

// How a policy breaks ties among the nodes of the highest score. kNodeRank: the node of lowest rank
// in a seeded random permutation of the nodes drawn once per run (the FGD repo's scheduler, see
// docs/fragmentation.md); kRandom: uniformly at random for each pod (reservoir sampling; `random`,
// which the FGD repo draws uniformly among the feasible nodes, and the Boreas policies).
enum class TieBreak : uint8_t { kNodeRank, kRandom };
TieBreak tie_break_of(Policy p);


// Scores for one node that fits the pod. `frag_before` is memo.frag(n) (only FGD and Boreas read
// it); FGD's score is 100·sigmoid((before − after − penalty)/1000) in the memo's measure, `penalty`
// 0 for FGD.
Scored score_fgd(const Node& n, const PodShape& p, double frag_before, FragMemo& memo, double penalty = 0);
// FGD's points in `fgd`'s measure (less `penalty`, the displaced demand) first, and among nodes
// scored alike the CPU-aware measure's points: one integer, primary × 101 + cpu. `fgd_before` is
// `fgd`'s measure of `n`; the GPUs taken are FGD's choice.
Scored score_boreas(const Node& n, const PodShape& p, double fgd_before, FragMemo& fgd, FragMemo& cpu,
                    double penalty = 0);
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
  // `design` matters to `boreas` only (tests switch its terms off one at a time).
  Placer(Policy policy, const std::vector<TaskClass>& mix, uint64_t seed, BoreasDesign design = {});
  // The measure the scores read `frag` in (measure_of the policy and design).
  Measure measure() const { return memo_.measure(); }
  // `frag` holds memo().frag of every node (kept current by the caller). The node list must keep
  // its size and order over a run (the ranks are drawn on the first call).
  Choice choose(const std::vector<Node>& nodes, const std::vector<double>& frag, const PodShape& p);
  FragMemo& memo() { return memo_; }

 private:
  Scored score(const Node& n, const PodShape& p, double frag_before);
  uint64_t below(uint64_t n) { return rng_() % n; }
  // True when node i, scoring as the best so far, replaces it (the `ties`-th node of that score).
  bool wins_tie(size_t i, size_t best, uint64_t ties);

  void start_run(const std::vector<Node>& nodes);

  Policy policy_;
  TieBreak ties_;
  BoreasDesign design_;
  std::vector<uint32_t> rank_;  // kNodeRank: each node's rank, a seeded permutation
  FragMemo memo_;
  FragMemo cpu_memo_;  // the CPU-aware measure, for `boreas`
  std::vector<TaskClass> mix_;
  TypePressure base_pressure_;  // `boreas`: drawn from the mix and the nodes on the first pod
  TypePressure pressure_;       // the one scores read for the pod at hand
  double arrived_milli_ = 0;    // GPU demand of the pods offered so far
  bool started_ = false;
  std::mt19937_64 rng_;
};

}  // namespace boreas::frag
