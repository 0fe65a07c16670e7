#pragma once
// The Gittins index of a job's attained service under an empirical service distribution, learned
// online from completed jobs (Tiresias §4.2; Gittins 1989).

#include <cstdint>
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

 private:
  std::vector<int64_t> sorted_;
  std::vector<double> prefix_;    // prefix_[i] = Σ sorted_[0..i)
  std::vector<int64_t> pending_;  // samples not yet merged (merged in batches: amortized O(log n))
};

}  // namespace boreas::policy
