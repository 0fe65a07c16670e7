#pragma once
// The safe-preemption part (docs/multitenancy.md, "Preemption"): whole gangs only; the fewest
// victims, then the least lost work (time since the victim's last checkpoint); a minimum runtime
// and a per-job cap for priority preemption; hysteresis so that a job never preempts the job that
// preempted it within a window; a cap on victims per round.

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/time.h"
#include "policy/placement.h"

namespace boreas::policy {

struct PreemptionOptions {
  bool enabled = true;
  Duration min_runtime = Duration::seconds(600);    // before a priority preemption may hit a job
  Duration hysteresis = Duration::seconds(3600);    // no preempting back within this window
  uint32_t max_per_round = 256;  // victims per round: above the largest gang, so 1-GPU victims can
                                 // always make room for a reclaiming gang
  uint32_t max_per_job = 3;  // after this many, a job starts only on unreclaimable capacity
  // A preemptible job that may not borrow (at its cap) and has waited this long in all while
  // in-service GPUs it fits were idle borrows reclaimable capacity anyway: the wait bound.
  Duration idle_wait_bound = Duration::seconds(3600);
};

// Work a victim would lose now: time since its last checkpoint (all its run if it never saves).
Duration lost_work(JobId job, const state::ClusterView& view);

class PreemptionGuard {
 public:
  explicit PreemptionGuard(PreemptionOptions options) : options_(options) {}
  const PreemptionOptions& options() const { return options_; }

  // May `victim` be evicted by a higher priority class of its queue (min runtime, cap, hysteresis)?
  bool priority_victim_ok(JobId victim, JobId preemptor, const state::ClusterView& view) const;
  // Hysteresis alone (used by priority preemption; reclaim ignores it and the minimum runtime:
  // a guarantee is never late).
  bool not_retaliation(JobId victim, JobId preemptor, Time now) const;
  void record(JobId victim, JobId preemptor, Time now);

 private:
  struct Last {
    JobId by;
    Time at;
  };
  PreemptionOptions options_;
  std::unordered_map<uint32_t, Last> last_;  // victim -> who preempted it, when
};

// Chooses victims among `candidates` so that `job` can be placed: one victim if any single one
// suffices (least lost work first), else greedily the largest gangs, then pruned. Returns the
// victims and the placement, leaving `scratch` with the victims released and the gang claimed;
// on failure `scratch` is unchanged.
struct Eviction {
  std::vector<JobId> victims;
  std::vector<GpuId> gpus;
};
// `may_add(chosen, c)`: whether c may join the victims already chosen (e.g. its queue would stay
// above its guarantee); a single victim is checked with `chosen` empty. It may only grow stricter
// as victims are chosen (may_add(chosen, c) implies may_add({}, c)), so candidates it refuses
// alone are dropped before the search. It must not read the scratch (the search releases
// candidates in it while it asks).
using VictimFilter = std::function<bool(const std::vector<JobId>& chosen, JobId candidate)>;
// A VictimFilter's answers for a set that grows one victim at a time, without reading the set per
// ask: after restart(), admits(c) answers as may_add(chosen, c) where `chosen` holds the victims
// join() was given since, in that order (an empty set right after restart()).
class GrowingVictimFilter {
 public:
  virtual ~GrowingVictimFilter() = default;
  virtual void restart() = 0;
  virtual bool admits(JobId candidate) = 0;
  virtual void join(JobId victim) = 0;
};
// With `monotone` (the placement never fails where it succeeded with fewer GPUs free:
// placement_is_monotone), a gang that does not fit with every candidate released fits with no
// subset of them either, so the search ends after that one placement. With `growing` (the same
// answers as `may_add`), the growing sets are asked through it, each ask in constant time.
std::optional<Eviction> choose_victims(const JobSpec& job, std::vector<JobId> candidates, uint32_t max_victims,
                                       Placement& placement, Scratch& scratch, const VictimFilter& may_add,
                                       bool monotone = false, GrowingVictimFilter* growing = nullptr);
// choose_victims in two steps, so that a caller may keep the first while nothing it reads moves:
// the candidates `may_add` admits alone (asked through `growing` when given), in the order the
// search tries them (fewest preemptions, then least lost work × GPUs, then their order here); and
// the search among them, in that order.
std::vector<JobId> victims_in_loss_order(std::vector<JobId> candidates, const state::ClusterView& view,
                                         const VictimFilter& may_add, GrowingVictimFilter* growing = nullptr);
std::optional<Eviction> choose_victims_in_order(const JobSpec& job, const std::vector<JobId>& candidates,
                                                uint32_t max_victims, Placement& placement, Scratch& scratch,
                                                const VictimFilter& may_add, bool monotone = false,
                                                GrowingVictimFilter* growing = nullptr);

// Whether the named placement is monotone: a gang it places on some free GPUs it also places when
// more are free (count, first-fit, pack, consolidated; `MonotonePlacementProperty` checks them).
bool placement_is_monotone(std::string_view name);

}  // namespace boreas::policy
