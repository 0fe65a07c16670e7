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

void PriorityScheduler::rank(const state::ClusterView& view) {
  ranked_.clear();
  for (JobId j : view.running()) {
    ranked_.push_back(Ranked{order_->key(j, view), j});
  }
  for (JobId j : view.pending()) {
    if (admission_->admit(j, view)) {
      ranked_.push_back(Ranked{order_->key(j, view), j});
    }
  }
  std::sort(ranked_.begin(), ranked_.end());
}

Plan PriorityScheduler::schedule(const state::ClusterView& view) {
  order_->prepare(view);
  rank(view);
  // Jobs that may not be preempted hold their GPUs whatever their rank.
  uint64_t budget = view.total_gpus();
  for (JobId j : view.running()) {
    budget -= view.spec(j).preemptible ? 0 : view.spec(j).gpus;
  }
  Plan plan;
  std::vector<JobId> grant;
  for (const Ranked& r : ranked_) {
    const JobSpec& spec = view.spec(r.job);
    const bool running = view.record(r.job).state == JobState::kRunning;
    if (running && !spec.preemptible) {
      continue;
    }
    if (spec.gpus <= budget) {
      budget -= spec.gpus;
      if (!running) {
        grant.push_back(r.job);
      }
    } else if (running) {
      plan.preemptions.push_back(r.job);
    }
  }
  Scratch scratch(view);
  for (JobId j : plan.preemptions) {
    scratch.release(view.record(j).gpus);
  }
  for (JobId j : grant) {
    if (auto gpus = placement_->place(view.spec(j), scratch)) {
      scratch.claim(*gpus);
      plan.starts.push_back(Start{j, std::move(*gpus)});
    }
  }
  plan.wake_at = order_->wake_at(view);
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
