#pragma once
// The waiting jobs in arrival (id) order as a flat array kept from the state's journal, for
// easy-backfill, whose walk visits every waiting job while a reservation stands: walking a std::set
// costs a pointer chase per job. A job that leaves keeps its entry, marked out (it takes it back if it
// waits again); entries marked out are dropped once they are half of the array, and those ahead of
// the first waiting job as soon as they are met, so keeping the array costs O(1) per journal entry
// amortised and a walk O(waiting jobs).

#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "state/cluster_view.h"

namespace boreas::policy {

class PendingList {
 public:
  // Brings the list in step with view.pending(); a state not seen before is read whole.
  void sync(const state::ClusterView& view);
  // Calls fn(job) for each waiting job in id order until it returns false.
  template <typename Fn>
  void walk(Fn&& fn) const {
    for (size_t i = first_; i < items_.size(); ++i) {
      if (waits_[items_[i].value()] && !fn(items_[i])) {
        return;
      }
    }
  }

 private:
  void rebuild(const state::ClusterView& view);
  void enter(JobId job);
  void tidy();

  std::vector<JobId> items_;     // ascending ids; some marked out
  std::vector<JobId> added_;     // entered out of order since the last sync
  std::vector<uint8_t> waits_;   // by job: in pending()
  std::vector<uint8_t> listed_;  // by job: has an entry in items_ or added_
  size_t first_ = 0;             // entries before it are all marked out
  size_t out_ = 0;               // entries marked out at or after first_
  size_t live_ = 0;              // jobs marked waiting
  size_t journal_seen_ = 0;
  bool synced_ = false;
};

}  // namespace boreas::policy
