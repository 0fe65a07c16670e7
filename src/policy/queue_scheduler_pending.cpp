#include "policy/queue_scheduler_pending.h"

#include <algorithm>

namespace boreas::policy {

void PendingList::rebuild(const state::ClusterView& view) {
  const auto& pending = view.pending();
  items_.assign(pending.begin(), pending.end());
  added_.clear();
  std::fill(waits_.begin(), waits_.end(), 0);
  std::fill(listed_.begin(), listed_.end(), 0);
  for (JobId j : items_) {
    waits_[j.value()] = 1;
    listed_[j.value()] = 1;
  }
  first_ = 0;
  out_ = 0;
  live_ = items_.size();
  journal_seen_ = view.state().journal().size();
  synced_ = true;
}

void PendingList::enter(JobId job) {
  listed_[job.value()] = 1;
  if (items_.size() == first_ || items_.back() < job) {
    items_.push_back(job);
  } else {
    added_.push_back(job);
  }
}

// Merges the jobs entered out of order, drops marked-out entries at the front, and all of them once
// they are half of the array.
void PendingList::tidy() {
  if (!added_.empty()) {
    std::sort(added_.begin(), added_.end());
    const auto kept = static_cast<std::ptrdiff_t>(items_.size());
    items_.insert(items_.end(), added_.begin(), added_.end());
    std::inplace_merge(items_.begin() + static_cast<std::ptrdiff_t>(first_), items_.begin() + kept, items_.end());
    added_.clear();
  }
  for (; first_ < items_.size() && !waits_[items_[first_].value()]; ++first_, --out_) {
    listed_[items_[first_].value()] = 0;
  }
  if (2 * out_ <= items_.size() - first_) {
    return;
  }
  items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(first_));
  std::erase_if(items_, [&](JobId j) {
    const bool out = !waits_[j.value()];
    listed_[j.value()] = out ? 0 : listed_[j.value()];
    return out;
  });
  first_ = 0;
  out_ = 0;
}

void PendingList::sync(const state::ClusterView& view) {
  waits_.resize(std::max(waits_.size(), view.job_count()), 0);
  listed_.resize(std::max(listed_.size(), view.job_count()), 0);
  const auto journal = view.state().journal();
  if (!synced_ || journal.size() < journal_seen_) {
    rebuild(view);
    return;
  }
  for (; journal_seen_ < journal.size(); ++journal_seen_) {
    const JobId j = journal[journal_seen_];
    const bool waits = view.pending().count(j) > 0;
    if (waits == static_cast<bool>(waits_[j.value()])) {
      continue;
    }
    waits_[j.value()] = waits ? 1 : 0;
    live_ = waits ? live_ + 1 : live_ - 1;
    if (!waits) {
      ++out_;
    } else if (listed_[j.value()]) {
      --out_;  // its entry is still in place
    } else {
      enter(j);
    }
  }
  tidy();
  if (live_ != view.pending().size()) {
    rebuild(view);  // a change the journal did not show: read the state whole
  }
}

}  // namespace boreas::policy
