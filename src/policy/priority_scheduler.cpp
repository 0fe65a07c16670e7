#include "policy/priority_scheduler.h"

#include <algorithm>
#include <utility>

namespace boreas::policy {

PriorityScheduler::PriorityScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                     std::unique_ptr<Placement> placement,
                                     std::unique_ptr<Admission> admission)
    : name_(std::move(name)),
      order_(std::move(order)),
      placement_(std::move(placement)),
      admission_(std::move(admission)) {}

void PriorityScheduler::rank(const state::ClusterView& view, bool pending_only) {
  ranked_.clear();
  if (!pending_only) {
    for (JobId j : view.running()) {
      ranked_.push_back(Ranked{order_->key(j, view), j});
    }
  }
  for (JobId j : view.pending()) {
    if (admission_->admit(j, view)) {
      ranked_.push_back(Ranked{order_->key(j, view), j});
    }
  }
  std::sort(ranked_.begin(), ranked_.end());
}

// The walk: grant each job whose gang fits in what higher-ranked jobs left; preempt running jobs
// that do not fit. Then place the granted pending jobs on the GPUs left free.
void PriorityScheduler::decide(const state::ClusterView& view, Plan& plan) {
  // Jobs that may not be preempted hold their GPUs whatever their rank.
  uint64_t budget = view.total_gpus();
  for (JobId j : view.running()) {
    budget -= view.spec(j).preemptible ? 0 : view.spec(j).gpus;
  }
  grant_.clear();
  for (const Ranked& r : ranked_) {
    const JobSpec& spec = view.spec(r.job);
    const bool running = view.record(r.job).state == JobState::kRunning;
    if (running && !spec.preemptible) {
      continue;
    }
    if (spec.gpus <= budget) {
      budget -= spec.gpus;
      if (!running) {
        grant_.push_back(r.job);
      }
    } else if (running) {
      plan.preemptions.push_back(r.job);
    }
  }
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
  running_after_.clear();
  std::vector<JobId> preempted(plan.preemptions);
  std::sort(preempted.begin(), preempted.end());
  for (JobId j : view.running()) {
    if (!std::binary_search(preempted.begin(), preempted.end(), j)) {
      running_after_.push_back(j);
    }
  }
  for (const Start& s : plan.starts) {
    running_after_.push_back(s.job);
  }
  return order_->wake_at(view, running_after_);
}

Plan PriorityScheduler::schedule(const state::ClusterView& view) {
  Plan plan;
  if (view.pending().empty()) {
    return plan;  // every running job fits by definition; nothing to start or preempt
  }
  // When every pending gang fits in the free GPUs the walk grants them all and preempts nothing,
  // so only the pending jobs need ranking (for placement order).
  const bool pending_only = view.state().pending_gpu_demand() <= view.free_gpus();
  order_->prepare(view, pending_only);
  rank(view, pending_only);
  decide(view, plan);
  plan.wake_at = wake_at(view, plan);
  return plan;
}

namespace {

class SrtfOrder final : public PriorityOrder {
 public:
  explicit SrtfOrder(bool by_gpu) : by_gpu_(by_gpu) {}
  SortKey key(JobId job, const state::ClusterView& view) override {
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
