#pragma once
// Preemptive priority policies (srtf, srtf-gpu, las, gittins) share one round: order every active
// job (running and pending) by the policy's key, walk that order granting each job whose gang
// still fits in the cluster's GPUs, and preempt running jobs that no longer fit (Tiresias'
// semantics). Only the order differs, so it is a part.

#include <memory>
#include <optional>
#include <string>

#include "policy/placement.h"
#include "policy/scheduler.h"

namespace boreas::policy {

// Smaller sorts first; ties go to the lower job id (earlier arrival).
struct SortKey {
  double primary = 0;
  int64_t secondary = 0;
  int64_t tertiary = 0;
  auto operator<=>(const SortKey&) const = default;
};

// The queue-order part of a preemptive policy.
class PriorityOrder {
 public:
  virtual ~PriorityOrder() = default;
  // Once per round, before keys are read: update per-job bookkeeping (levels, learned data).
  virtual void prepare(const state::ClusterView&) {}
  virtual SortKey key(JobId job, const state::ClusterView& view) = 0;
  // When the order may change without any arrival or completion (e.g. a demotion).
  virtual std::optional<Time> wake_at(const state::ClusterView&) { return std::nullopt; }
};

class PriorityScheduler final : public Scheduler {
 public:
  PriorityScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                    std::unique_ptr<Placement> placement, std::unique_ptr<Admission> admission);

  std::string_view name() const override { return name_; }
  std::string_view placement_name() const override { return placement_->name(); }
  Plan schedule(const state::ClusterView& view) override;

 private:
  struct Ranked {
    SortKey key;
    JobId job;
    bool operator<(const Ranked& o) const { return key != o.key ? key < o.key : job < o.job; }
  };
  void rank(const state::ClusterView& view);

  std::string name_;
  std::unique_ptr<PriorityOrder> order_;
  std::unique_ptr<Placement> placement_;
  std::unique_ptr<Admission> admission_;
  std::vector<Ranked> ranked_;  // reused between rounds
};

// Oracle orders (they read true remaining work): lower bounds, not deployable policies.
std::unique_ptr<PriorityOrder> make_srtf_order();      // remaining time
std::unique_ptr<PriorityOrder> make_srtf_gpu_order();  // remaining time × GPUs

}  // namespace boreas::policy
