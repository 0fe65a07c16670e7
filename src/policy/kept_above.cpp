#include "policy/kept_above.h"

#include <algorithm>
#include <limits>

namespace boreas::policy {

void KeptAbove::resize(size_t jobs) {
  if (in_.size() < jobs) {
    in_.resize(jobs, 0);
    stamp_.resize(jobs, 0);
    bounds_.resize(jobs);
    primary_.resize(jobs, std::numeric_limits<double>::infinity());
    counted_.resize(jobs, 0);
  }
}

void KeptAbove::release(JobId job) {
  const uint32_t i = job.value();
  if (in_[i]) {
    in_[i] = 0;
    primary_[i] = std::numeric_limits<double>::infinity();
    --held_;
    const auto at = std::lower_bound(by_bound_.begin(), by_bound_.end(), RankedJob{bounds_[i], job}, ranks_after);
    gpus_ -= at->gpus;
    by_bound_.erase(at);
    released_.push_back(job);
  }
}

void KeptAbove::clear() {
  for (const RankedJob& r : by_bound_) {
    in_[r.job.value()] = 0;
    primary_[r.job.value()] = std::numeric_limits<double>::infinity();
    released_.push_back(r.job);
  }
  held_ = 0;
  gpus_ = 0;
  by_bound_.clear();
  by_time_.clear();
}

void KeptAbove::follow(std::span<const JobId> journal, size_t& seen) {
  for (; seen < journal.size(); ++seen) {
    release(journal[seen]);
  }
}

void KeptAbove::tally(const state::ClusterView& view) {
  const auto journal = view.state().journal();
  for (; tallied_ < journal.size(); ++tallied_) {
    const JobId j = journal[tallied_];
    const uint8_t running = view.record(j).state == JobState::kRunning ? 1 : 0;
    if (running != counted_[j.value()]) {
      counted_[j.value()] = running;
      const uint64_t gpus = view.spec(j).gpus;
      running_gpus_ = running ? running_gpus_ + gpus : running_gpus_ - gpus;
    }
  }
}

void KeptAbove::expire(const state::ClusterView& view, uint64_t epoch) {
  resize(view.job_count());
  tally(view);
  follow(view.state().journal(), journal_seen_);
  follow(view.state().rate_journal(), rates_seen_);
  if (epoch != epoch_) {
    clear();
    top_ = kNoBar;
    epoch_ = epoch;
  }
  const int64_t now = view.now().us();
  while (!by_time_.empty() && (!current(by_time_.front()) || by_time_.front().until_us <= now)) {
    if (current(by_time_.front())) {
      release(by_time_.front().job);
    }
    std::pop_heap(by_time_.begin(), by_time_.end(), LaterUntil());
    by_time_.pop_back();
  }
  compact();
}

void KeptAbove::hold(JobId job, const SortKey& bound, Time until, uint32_t gpus) {
  const uint32_t i = job.value();
  const RankedJob entry{bound, job, gpus};
  if (in_[i]) {
    hold_again(entry);
  } else {
    by_bound_.insert(std::upper_bound(by_bound_.begin(), by_bound_.end(), entry, ranks_after), entry);
    gpus_ += gpus;
    in_[i] = 1;
    ++held_;
  }
  bounds_[i] = bound;
  primary_[i] = bound.primary;
  by_time_.push_back(Entry{until.us(), job, ++stamp_[i]});
  std::push_heap(by_time_.begin(), by_time_.end(), LaterUntil());
}

// A held job held with a new bound: as a release and a hold, but its entry moves from its old place
// in by_bound_ to its new one, shifting only the entries between (the new place is found with the
// old entry still in: after it, the place is one less once it has left).
void KeptAbove::hold_again(const RankedJob& entry) {
  const uint32_t i = entry.job.value();
  const auto from = std::lower_bound(by_bound_.begin(), by_bound_.end(), RankedJob{bounds_[i], entry.job}, ranks_after);
  const auto to = std::upper_bound(by_bound_.begin(), by_bound_.end(), entry, ranks_after);
  gpus_ = gpus_ - from->gpus + entry.gpus;
  if (from < to) {
    std::rotate(from, from + 1, to);
    *(to - 1) = entry;
  } else {
    std::rotate(to, from, from + 1);
    *to = entry;
  }
  released_.push_back(entry.job);  // let go of its old bound
}

// Drops stale entries once they outnumber the held jobs (a released job leaves its entries behind).
void KeptAbove::compact() {
  if (by_time_.size() < 4 * held_ + 1024) {
    return;
  }
  std::erase_if(by_time_, [&](const Entry& e) { return !current(e); });
  std::make_heap(by_time_.begin(), by_time_.end(), LaterUntil());
}

}  // namespace boreas::policy
