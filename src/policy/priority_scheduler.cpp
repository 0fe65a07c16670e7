#include "policy/priority_scheduler.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace boreas::policy {

PriorityScheduler::PriorityScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                     std::unique_ptr<Placement> placement,
                                     std::unique_ptr<Admission> admission, uint32_t max_preemptions)
    : name_(std::move(name)),
      order_(std::move(order)),
      placement_(std::move(placement)),
      admission_(std::move(admission)),
      max_preemptions_(max_preemptions) {}

void PriorityScheduler::RankedSet::resize(size_t jobs) {
  if (key_.size() < jobs) {
    key_.resize(jobs);
    gpus_.resize(jobs);
    in_.resize(jobs, 0);
  }
}

void PriorityScheduler::RankedSet::clear() {
  set_.clear();
  by_gpus_.clear();
  std::fill(in_.begin(), in_.end(), 0);
}

void PriorityScheduler::RankedSet::erase(JobId job) {
  const uint32_t i = job.value();
  if (in_[i]) {
    set_.erase(Ranked{key_[i], job});
    if (--by_gpus_[gpus_[i]] == 0) {
      by_gpus_.erase(gpus_[i]);
    }
    in_[i] = 0;
  }
}

void PriorityScheduler::RankedSet::insert(JobId job, SortKey key, uint32_t gpus) {
  const uint32_t i = job.value();
  key_[i] = key;
  gpus_[i] = gpus;
  set_.insert(Ranked{key, job});
  ++by_gpus_[gpus];
  in_[i] = 1;
}

uint32_t PriorityScheduler::RankedSet::min_gpus() const {
  return by_gpus_.empty() ? std::numeric_limits<uint32_t>::max() : by_gpus_.begin()->first;
}

void PriorityScheduler::FlatRanked::resize(size_t jobs) {
  if (key_.size() < jobs) {
    key_.resize(jobs);
    in_.resize(jobs, 0);
  }
}

void PriorityScheduler::FlatRanked::clear() {
  items_.clear();
  added_.clear();
  dirty_ = false;
  std::fill(in_.begin(), in_.end(), 0);
}

void PriorityScheduler::FlatRanked::erase(JobId job) {
  if (in_[job.value()]) {
    in_[job.value()] = 0;  // its entry goes stale
    dirty_ = true;
  }
}

void PriorityScheduler::FlatRanked::insert(JobId job, SortKey key) {
  key_[job.value()] = key;
  in_[job.value()] = 1;
  added_.push_back(Ranked{key, job});
  dirty_ = true;
}

// A job erased and inserted again under the same key has two live entries: one is dropped.
const std::vector<PriorityScheduler::Ranked>& PriorityScheduler::FlatRanked::items() {
  if (!dirty_) {
    return items_;
  }
  auto stale = [&](const Ranked& r) { return !live(r); };
  items_.erase(std::remove_if(items_.begin(), items_.end(), stale), items_.end());
  added_.erase(std::remove_if(added_.begin(), added_.end(), stale), added_.end());
  std::sort(added_.begin(), added_.end());
  const auto kept = static_cast<std::ptrdiff_t>(items_.size());
  items_.insert(items_.end(), added_.begin(), added_.end());
  std::inplace_merge(items_.begin(), items_.begin() + kept, items_.end());
  auto same = [](const Ranked& a, const Ranked& b) { return !(a < b) && !(b < a); };
  items_.erase(std::unique(items_.begin(), items_.end(), same), items_.end());
  added_.clear();
  dirty_ = false;
  return items_;
}

void PriorityScheduler::rekey_pending(const state::ClusterView& view) {
  pending_.clear();
  for (JobId j : view.pending()) {
    pending_.insert(j, order_->key(j, view), view.spec(j).gpus);
  }
  epoch_ = order_->pending_key_epoch();
}

void PriorityScheduler::sync_job(JobId job, const state::ClusterView& view) {
  pending_.erase(job);
  running_set_.erase(job);
  const JobState state = view.record(job).state;
  if (state == JobState::kRunning && order_->running_keys_stable()) {
    running_set_.insert(job, order_->key(job, view));
  } else if (view.state().pending().count(job) > 0) {
    pending_.insert(job, order_->key(job, view), view.spec(job).gpus);
  }
}

// Notes whether any job added since the last round is not preemptible (the job table only grows).
void PriorityScheduler::learn_jobs(const state::ClusterView& view) {
  for (; learned_ < view.job_count(); ++learned_) {
    some_unpreemptible_ = some_unpreemptible_ || !view.spec(JobId(static_cast<uint32_t>(learned_))).preemptible;
  }
}

// Applies the lifecycle changes since the last round to the sorted sets (a policy object sees one
// state for its life, from the start of its journal).
void PriorityScheduler::sync_pending(const state::ClusterView& view) {
  pending_.resize(view.job_count());
  running_set_.resize(view.job_count());
  const auto journal = view.state().journal();
  for (; journal_seen_ < journal.size(); ++journal_seen_) {
    sync_job(journal[journal_seen_], view);
  }
  for (JobId j : order_->changed_keys()) {
    sync_job(j, view);
  }
  if (order_->pending_key_epoch() != epoch_) {
    rekey_pending(view);
  }
}

const std::vector<PriorityScheduler::Ranked>& PriorityScheduler::rank_running(
    const state::ClusterView& view) {
  if (order_->running_keys_stable()) {
    return running_set_.items();
  }
  return running_.rank(view.running(), view.job_count(),
                       [&](std::span<Ranked> items) { order_->rekey(items, view); });
}

// A running job no plan may preempt: not preemptible, or at the preemption cap.
bool PriorityScheduler::kept_running(JobId job, const state::ClusterView& view) const {
  return !view.spec(job).preemptible || (max_preemptions_ > 0 && view.record(job).preemptions >= max_preemptions_);
}

// Grants `job` if its gang fits in the budget left by higher-ranked jobs; a running job that does
// not fit is preempted.
void PriorityScheduler::consider(JobId job, bool running, uint64_t& budget, const state::ClusterView& view,
                                 Plan& plan) {
  const JobSpec& spec = view.spec(job);
  if (running && kept_running(job, view)) {
    return;  // its GPUs were taken out of the budget up front
  }
  if (spec.gpus <= budget) {
    budget -= spec.gpus;
    if (!running) {
      grant_.push_back(job);
    }
  } else if (running) {
    plan.preemptions.push_back(job);
  }
}

// The walk over running and pending jobs merged in rank order (Tiresias' semantics). The budget
// only shrinks, so once it is below every waiting gang no pending job can be granted any more.
void PriorityScheduler::decide(const state::ClusterView& view, const std::vector<Ranked>& running,
                               Plan& plan) {
  uint64_t budget = view.total_gpus() - view.down_gpus();  // nodes out of service host nothing
  if (some_unpreemptible_ || max_preemptions_ > 0) {  // else no running job is kept
    for (JobId j : view.running()) {
      budget -= kept_running(j, view) ? view.spec(j).gpus : 0;
    }
  }
  const uint64_t min_gpus = std::max<uint64_t>(1, pending_.min_gpus());
  auto p = pending_.set().begin();
  for (const Ranked& r : running) {
    for (; p != pending_.set().end() && *p < r && budget >= min_gpus; ++p) {
      if (admission_->admit(p->job, view)) {
        consider(p->job, false, budget, view, plan);
      }
    }
    consider(r.job, true, budget, view, plan);
  }
  for (; p != pending_.set().end() && budget >= min_gpus; ++p) {
    if (admission_->admit(p->job, view)) {
      consider(p->job, false, budget, view, plan);
    }
  }
}

void PriorityScheduler::place_granted(const state::ClusterView& view, Plan& plan) {
  Scratch scratch(view);
  for (JobId j : plan.preemptions) {
    scratch.release(view.record(j).gpus);
  }
  for (JobId j : grant_) {
    if (auto gpus = placement_->place(view.spec(j), scratch)) {
      scratch.claim(*gpus);
      plan.starts.push_back(Start{j, std::move(*gpus)});
    }
  }
}

// A wake-up only matters while some job waits: with nothing pending, the next arrival calls us anyway.
std::optional<Time> PriorityScheduler::wake_at(const state::ClusterView& view, const Plan& plan) {
  if (view.pending().size() + plan.preemptions.size() == plan.starts.size()) {
    return std::nullopt;
  }
  return order_->wake_at(view, plan);
}

Plan PriorityScheduler::schedule(const state::ClusterView& view) {
  Plan plan;
  if (view.pending().empty()) {
    return plan;  // every running job fits by definition; nothing to start or preempt
  }
  // When every pending gang fits in the free GPUs the walk grants them all and preempts nothing,
  // so running jobs need no ranking.
  const bool pending_only = view.state().pending_gpu_demand() <= view.free_gpus();
  learn_jobs(view);
  order_->prepare(view, pending_only);
  sync_pending(view);
  grant_.clear();
  if (pending_only) {
    for (const Ranked& r : pending_.set()) {
      if (admission_->admit(r.job, view)) {
        grant_.push_back(r.job);
      }
    }
  } else {
    decide(view, rank_running(view), plan);
  }
  place_granted(view, plan);
  plan.wake_at = wake_at(view, plan);
  return plan;
}

namespace {

class SrtfOrder final : public KeyedOrder<SrtfOrder> {
 public:
  explicit SrtfOrder(bool by_gpu) : by_gpu_(by_gpu) {}
  SortKey key(JobId job, const state::ClusterView& view) final {
    const int64_t left = view.remaining(job).us();
    return SortKey{static_cast<double>(by_gpu_ ? left * view.spec(job).gpus : left), 0, 0};
  }

 private:
  bool by_gpu_;
};

}  // namespace

std::unique_ptr<PriorityOrder> make_srtf_order() {
  return std::make_unique<SrtfOrder>(false);
}
std::unique_ptr<PriorityOrder> make_srtf_gpu_order() {
  return std::make_unique<SrtfOrder>(true);
}

}  // namespace boreas::policy
