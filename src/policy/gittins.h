#pragma once
// The Gittins index of a job's attained service under an empirical service distribution, learned
// online from completed jobs (Tiresias §4.2; Gittins 1989).

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace boreas::policy {

class GittinsTable {
 public:
  void add(int64_t service);
  // Merges added samples once they are a noticeable share (so index() stays O(log n) and indexes
  // change rarely); true when it did.
  bool refresh();
  bool empty() const { return sorted_.empty(); }
  // P(S − a ≤ Δ | S > a) / E[min(S − a, Δ) | S > a]: the chance of finishing within the next Δ per
  // unit of service spent. 0 when no completed job ran longer than `attained`.
  double index(int64_t attained, int64_t delta);
  // Where one job's last index() read the table: a running job's attained service only grows and
  // its cap (attained + Δ) stays at its queue's ceiling, so the next read walks on from there. Until
  // the attained service reaches the sample after `lo` (and the cap the sample after `hi`) neither
  // position moves, and the read needs no table access: the sum between them is kept. The cursor
  // walks the distinct samples (`at_lo`, `at_hi`: positions in values_), ~5× fewer than the samples
  // on Philly, so a moved read strides over a table that mostly stays in cache.
  struct Cursor {
    uint64_t version = 0;  // 0 = never read
    int64_t attained = 0;
    int64_t cap = 0;
    int64_t lo = 0;       // samples ≤ attained: below_[at_lo]
    int64_t hi = 0;       // samples ≤ cap: below_[at_hi]
    int64_t at_lo = 0;    // distinct samples ≤ attained
    int64_t at_hi = 0;    // distinct samples ≤ cap
    int64_t lo_next = 0;  // values_[at_lo] (INT64_MAX past the end): lo moves once attained reaches it
    int64_t hi_next = 0;  // values_[at_hi], likewise for the cap
    double hi_sum = 0;    // prefix_[hi]: read again only when hi moves
    double spread = 0;    // prefix_[hi] − prefix_[lo]
  };
  // index(attained, delta), the same value, resumed from `cursor` (and moved on).
  double index(int64_t attained, int64_t delta, Cursor& cursor);
  uint64_t version() const { return version_; }

  // A floor under one job's index while its attained service grows from where `cursor` last read
  // it (this table version) up to `until` (exclusive), its cap staying at `ceiling` (-1: the last
  // queue, whose Δ is kUncapped).
  struct Floor {
    double index = 0;
    int64_t until = 0;
  };
  static constexpr int64_t kUncapped = std::numeric_limits<int64_t>::max() / 4;
  // The longest stretch of segments (attained service between two distinct samples) on which the
  // index stays at or above `bar`, from the cursor's segment up to the ceiling; nullopt when even
  // the cursor's segment may fall below it. Exact for index(): between two samples the
  // expression's every operation rounds monotonically, so the service never rises with attained
  // service and the index never falls while the service is above 0.
  std::optional<Floor> floor_from(const Cursor& cursor, int64_t ceiling, double bar);

 private:
  int64_t upper_from(int64_t from, int64_t value) const;
  double index_at(int64_t attained, int64_t delta, int64_t lo, int64_t hi) const;
  // index_at with prefix_[hi] − prefix_[lo] given: the one expression both paths evaluate.
  double index_from(int64_t attained, int64_t delta, int64_t lo, int64_t hi, double spread) const;
  int64_t value_or_max(int64_t at) const;
  void index_distinct();
  double service(int64_t attained, int64_t delta, int64_t lo, int64_t hi, double spread) const;
  struct CapFloors;
  const CapFloors& floors(int64_t ceiling);
  void fill_floors(CapFloors& out) const;
  static int64_t first_below(const CapFloors& f, int64_t from, double bar, double& low);
  uint64_t version_ = 1;  // bumped by every refresh that merges
  std::vector<int64_t> sorted_;
  std::vector<double> prefix_;    // prefix_[i] = Σ sorted_[0..i)
  // The distinct samples, for the cursor: values_[k] ascending; below_[k] samples are smaller than
  // values_[k] (below_[m] = n) and below_sum_[k] = prefix_[below_[k]], the same doubles.
  std::vector<int64_t> values_;
  std::vector<int64_t> below_;
  std::vector<double> below_sum_;
  std::vector<int64_t> pending_;  // samples not yet merged (merged in batches: amortized O(log n))
  // Per cap (this version): floors_[k] = the index at the start of segment k (attained service
  // with `at_lo` = k), its smallest value there, or -1 where the service may round to ≤ 0 inside
  // (the index drops to 0 there). Built on first use per cap; a few caps per run.
  static constexpr int64_t kBlock = 32;
  struct CapFloors {
    int64_t ceiling;
    std::vector<double> floors;
    std::vector<double> block_low;  // the least of floors[b × kBlock, (b + 1) × kBlock)
    int64_t last = 0;               // the last segment that starts below the ceiling
  };
  std::vector<CapFloors> floors_;
  uint64_t floors_version_ = 0;
};

}  // namespace boreas::policy
