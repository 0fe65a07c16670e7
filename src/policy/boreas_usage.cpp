// The `boreas` policy's usage kept across rounds: quota books, GPUs held per queue, GPUs of pinned
// borrowers and the classes running per queue count exactly the running jobs when a round starts.
// A round's starts and evictions count as they are planned; the next round brings the counts in
// step with the state from its journal and the jobs that plan moved, so a round costs the jobs
// that moved, not every running job.
#include <algorithm>
#include <limits>
#include <string>

#include "policy/boreas_policy.h"
#include "policy/boreas_round.h"

namespace boreas::policy {

void BoreasScheduler::hold(uint32_t q, const Demand& d, int32_t sign) {
  if (held_.size() <= q) {
    held_.resize(book_->queue_count(), std::vector<uint32_t>(catalog_size_, 0));
  }
  for (const TypeCount& tc : d) {
    uint32_t& h = held_[q][tc.type.value()];
    h = sign > 0 ? h + tc.gpus : h - std::min(h, tc.gpus);
  }
}

void BoreasScheduler::pin(const Demand& d, int32_t sign) {
  for (const TypeCount& tc : d) {
    uint64_t& p = pinned_by_type_[tc.type.value()];
    p = sign > 0 ? p + tc.gpus : p - std::min<uint64_t>(p, tc.gpus);
  }
}

// Adds a running (or starting) job as its JobInfo says: borrowed jobs stay out of covered_.
void BoreasScheduler::count(JobId job, const Demand& d) {
  const JobInfo& in = jobs_[job.value()];
  Counted& c = counted_[job.value()];
  const auto q = static_cast<uint32_t>(in.queue);
  c.in = true;
  c.covered = !in.borrowed;
  c.pinned = in.pinned;
  c.demand = d;  // into its kept capacity
  book_->add(q, d, +1);
  if (c.covered) {
    covered_->add(q, d, +1);
  }
  if (c.pinned) {
    pin(d, +1);
  }
  hold(q, d, +1);
  if (in.class_preemptible) {
    preemptible_.resize(std::max(preemptible_.size(), book_->queue_count()));
    preemptible_[q][in.class_value] += 1;
  }
  moved_.push_back(job);
}

void BoreasScheduler::uncount(JobId job) {
  Counted& c = counted_[job.value()];
  if (!c.in) {
    return;
  }
  const JobInfo& in = jobs_[job.value()];
  const auto q = static_cast<uint32_t>(in.queue);
  book_->add(q, c.demand, -1);
  if (c.covered) {
    covered_->add(q, c.demand, -1);
  }
  if (c.pinned) {
    pin(c.demand, -1);
  }
  hold(q, c.demand, -1);
  if (in.class_preemptible) {
    auto& classes = preemptible_[q];
    if (--classes[in.class_value] == 0) {
      classes.erase(in.class_value);
    }
  }
  c.in = false;
  moved_.push_back(job);
}

// A job is counted right when it is counted exactly while running, with the demand of the GPUs
// it holds. Only jobs in the journal since the last round or moved by its plan can be wrong (a
// planned start or eviction the driver did not carry out); the first round counts the state whole.
void BoreasScheduler::sync_usage(const state::ClusterView& view) {
  const state::ClusterState& state = view.state();
  const auto journal = state.journal();
  std::vector<JobId>& check = usage_check_;  // kept for its capacity; assigned below
  if (!usage_synced_ || journal.size() < usage_journal_pos_) {
    book_->clear_usage();
    covered_->clear_usage();
    held_.clear();
    pinned_by_type_.assign(catalog_size_, 0);
    preemptible_.clear();
    std::fill(counted_.begin(), counted_.end(), Counted{});
    check.assign(view.running().begin(), view.running().end());
    usage_synced_ = true;
  } else {
    check.assign(journal.begin() + static_cast<std::ptrdiff_t>(usage_journal_pos_), journal.end());
    check.insert(check.end(), moved_.begin(), moved_.end());
    std::sort(check.begin(), check.end());
    check.erase(std::unique(check.begin(), check.end()), check.end());
  }
  usage_journal_pos_ = journal.size();
  for (JobId j : check) {
    const bool running = view.record(j).state == JobState::kRunning;
    if (counted_[j.value()].in && (!running || !same_demand(counted_[j.value()].demand, held_demand(j, view)))) {
      uncount(j);
    }
    if (running && !counted_[j.value()].in) {
      info(j, view);
      count(j, held_demand(j, view));
    }
  }
  moved_.clear();
}

const std::vector<JobId>& BoreasScheduler::running_in(Round& r, uint32_t q) {
  if (!r.running_built) {
    // The last round's lists, emptied: their capacity is kept (a round asks in most full rounds).
    r.running_by_queue.swap(running_kept_);
    r.running_by_queue.resize(book_->queue_count());
    for (std::vector<JobId>& jobs : r.running_by_queue) {
      jobs.clear();
    }
    for (JobId j : r.view.running()) {
      r.running_by_queue[jobs_[j.value()].queue].push_back(j);
    }
    r.running_built = true;
  }
  return r.running_by_queue[q];
}

void BoreasScheduler::keep_running_lists(Round& r) {
  if (r.running_built) {
    running_kept_.swap(r.running_by_queue);
  }
}

void BoreasScheduler::account(Round& r) {
  fair_->advance(r.view.now(), last_held_);  // what was held since the last round
  sync_usage(r.view);
  r.lowest_preemptible_class.assign(book_->queue_count(), std::numeric_limits<int32_t>::max());
  for (uint32_t q = 0; q < preemptible_.size(); ++q) {
    if (!preemptible_[q].empty()) {
      r.lowest_preemptible_class[q] = preemptible_[q].begin()->first;
    }
  }
}

Status BoreasScheduler::check_usage(const state::ClusterView& view) {
  if (!book_) {
    return Status::ok();  // no round yet
  }
  init(view);
  sync_usage(view);
  QuotaBook book(options_.queues.get(), view.cluster()), covered(options_.queues.get(), view.cluster());
  for (uint32_t q = static_cast<uint32_t>(book.queue_count()); q < book_->queue_count(); ++q) {
    book.queue_of(view.state().symbols().find(book_->name(q)), view.state().symbols());  // the same indices
    covered.queue_of(view.state().symbols().find(book_->name(q)), view.state().symbols());
  }
  std::vector<std::vector<uint32_t>> held(book_->queue_count(), std::vector<uint32_t>(catalog_size_, 0));
  std::vector<uint64_t> pinned(catalog_size_, 0);
  std::vector<int32_t> lowest(book_->queue_count(), std::numeric_limits<int32_t>::max());
  for (JobId j : view.running()) {
    const JobInfo& in = jobs_[j.value()];
    const auto q = static_cast<uint32_t>(in.queue);
    const Demand d = demand_of(view.record(j).gpus, view);
    book.add(q, d, +1);
    if (!in.borrowed) {
      covered.add(q, d, +1);
    }
    for (const TypeCount& tc : d) {
      held[q][tc.type.value()] += tc.gpus;
      pinned[tc.type.value()] += in.pinned ? tc.gpus : 0;
    }
    lowest[q] = in.class_preemptible ? std::min(lowest[q], in.class_value) : lowest[q];
  }
  for (uint32_t q = 0; q < book_->queue_count(); ++q) {
    const int32_t kept_lowest = q < preemptible_.size() && !preemptible_[q].empty()
                                    ? preemptible_[q].begin()->first
                                    : std::numeric_limits<int32_t>::max();
    if (kept_lowest != lowest[q]) {
      return internal_error("queue " + book_->name(q) + ": lowest running preemptible class differs");
    }
    for (uint32_t t = 0; t < catalog_size_; ++t) {
      const GpuTypeId type(t);
      const uint32_t kept_held = q < held_.size() ? held_[q][t] : 0;
      const char* differs = book.usage(q, type) != book_->usage(q, type)         ? "usage"
                            : covered.usage(q, type) != covered_->usage(q, type) ? "covered usage"
                            : held[q][t] != kept_held                            ? "GPUs held"
                                                                                 : nullptr;
      if (differs != nullptr) {
        return internal_error("queue " + book_->name(q) + ", GPU type " + std::to_string(t) + ": kept " + differs +
                              " differs from the same counted from scratch");
      }
    }
  }
  return pinned == pinned_by_type_ ? Status::ok() : internal_error("GPUs of pinned borrowers differ");
}

}  // namespace boreas::policy
