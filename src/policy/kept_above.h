#pragma once
// Running jobs that rank above every waiting job for a while, kept out of a priority round's
// arrays (PriorityScheduler::decide_lazily): until a grant every running job ranked before the
// first waiting job is kept whatever the order, so the round needs only their GPUs. Each held job
// carries a bound its (key, job) stays under until a time its order gave (PriorityOrder::rank_bound).
// A round whose first waiting job ranks after a held job's bound leaves that job out of its items
// (skips() calls it kFirst, ranked before every job); a round whose first waiting job ranks higher
// keys it as usual, unless its bound ranks before the second bar (the waiting job after the first):
// then it is kSecond, a skip the round checks by GPU sums once the others are keyed (SkipBars).
// A job is let go once its time comes, its state or rate changes, or the order's bounds are renewed
// (a table refresh).

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "policy/ranked_job.h"
#include "state/cluster_view.h"

namespace boreas::policy {

class KeptAbove {
 public:
  void resize(size_t jobs);
  bool empty() const { return held_ == 0; }
  size_t size() const { return held_; }
  uint64_t gpus() const { return gpus_; }  // of the held jobs
  // The GPUs of every running job (held or not) at the last expire(), followed from the journal.
  uint64_t running_gpus() const { return running_gpus_; }
  // Lets go of every job whose bound may not hold at this round: stopped, started or re-rated since
  // the last call (the state's journals), at or past its time, or all of them when `epoch` moved.
  void expire(const state::ClusterView& view, uint64_t epoch);
  void hold(JobId job, const SortKey& bound, Time until, uint32_t gpus);
  // The held jobs as (bound, job) with their gang sizes, the last ranked first: a round's bars split
  // it into the jobs it keys (a prefix), those skipped against the second bar only (the next run) and
  // those skipped against the first (the rest), so a round need not visit the skipped ones at all.
  // (Last first: holds and releases land nearer the end, so they move fewer entries.)
  std::span<const RankedJob> by_bound() const { return by_bound_; }
  static bool ranks_after(const RankedJob& a, const RankedJob& b) { return b < a; }  // by_bound()'s order
  // The jobs let go since forget_released() (some may be held again, or no longer run).
  std::span<const JobId> released() const { return released_; }
  void forget_released() { released_.clear(); }
  // Notes this round's first waiting job; top() is the first of them since the bounds were last
  // renewed (the highest bar seen): a job ranked before it is held against it, so that its bound
  // lets the rounds skip it whatever the bar.
  void see(const RankedJob& bar) { top_ = std::min(top_, bar); }
  const RankedJob& top() const { return top_; }
  bool holds(JobId job) const { return in_[job.value()] != 0; }
  // The bound a held job was held with.
  const SortKey& bound(JobId job) const { return bounds_[job.value()]; }
  // A round's bars (PriorityScheduler::skip_bars): a job held with a bound before `first` needs no
  // key; one whose bound ranks before `second` needs none either when the running jobs keyed after
  // `second` hold enough GPUs (its grants cannot squeeze a job ranked before `second`).
  struct SkipBars {
    RankedJob first;
    RankedJob second;
  };
  // Sets `key` to kFirst or kSecond and returns true when `job` is held with a bound that ranks
  // before `bars.first` or (only) before `bars.second`: the round needs no key for it.
  // Most calls are decided by the bound's first field alone (`primary_`, +inf for a job not held:
  // it never ranks before a bar's); the rest compare the whole bound.
  bool skips(JobId job, const SkipBars& bars, SortKey& key) const {
    const double primary = primary_[job.value()];
    if (primary < bars.first.key.primary) {
      key = kFirst;
      return true;
    }
    if (primary > bars.first.key.primary) {
      if (primary < bars.second.key.primary) {
        key = kSecond;
        return true;
      }
      if (primary > bars.second.key.primary) {
        return false;
      }
    }
    return skips_by_whole_bound(job, bars, key);
  }
  // The keys a skipped job takes: before every other (kFirst before kSecond).
  static constexpr SortKey kFirst{-std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::min()};
  static constexpr SortKey kSecond{-std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::min() + 1};
  void clear();

 private:
  // skips() by the whole bound (its first field equals a bar's).
  bool skips_by_whole_bound(JobId job, const SkipBars& bars, SortKey& key) const {
    if (in_[job.value()] == 0) {
      return false;
    }
    const RankedJob bound{bounds_[job.value()], job};
    if (bound < bars.first) {
      key = kFirst;
      return true;
    }
    if (bound < bars.second) {
      key = kSecond;
      return true;
    }
    return false;
  }
  struct Entry {
    int64_t until_us;
    JobId job;
    uint32_t stamp;
  };
  struct LaterUntil {
    bool operator()(const Entry& a, const Entry& b) const { return a.until_us > b.until_us; }
  };
  bool current(const Entry& e) const { return in_[e.job.value()] && stamp_[e.job.value()] == e.stamp; }
  void release(JobId job);
  void hold_again(const RankedJob& entry);
  void follow(std::span<const JobId> journal, size_t& seen);
  void tally(const state::ClusterView& view);
  void compact();

  std::vector<uint8_t> in_;
  std::vector<uint32_t> stamp_;  // by job: bumped by every hold, so older heap entries go stale
  std::vector<SortKey> bounds_;  // by job, valid while held
  std::vector<double> primary_;  // by job: bounds_[job].primary while held, else +inf
  std::vector<Entry> by_time_;   // min-heap on until_us
  std::vector<RankedJob> by_bound_;  // the held jobs by (bound, job), the last ranked first
  std::vector<JobId> released_;      // let go since forget_released()
  static constexpr RankedJob kNoBar{SortKey{std::numeric_limits<double>::infinity(), 0, 0}, JobId()};
  RankedJob top_ = kNoBar;
  size_t held_ = 0;
  uint64_t gpus_ = 0;  // of the held jobs
  std::vector<uint8_t> counted_;  // by job: its GPUs are in running_gpus_
  uint64_t running_gpus_ = 0;
  size_t tallied_ = 0;  // journal entries tally() has read
  uint64_t epoch_ = 0;
  size_t journal_seen_ = 0;
  size_t rates_seen_ = 0;
};

}  // namespace boreas::policy
