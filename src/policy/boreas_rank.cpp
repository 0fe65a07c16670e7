// The `boreas` policy's ranking: pending jobs by (class value desc, queue fair share, attained
// GPU-time, id). Inside one (class, queue) group the share is the same and a pending job's attained
// service does not change, so each group keeps its jobs in (attained, id) order, updated from the
// state's journal; a round orders the groups by (class, share) and merges the groups that tie.
#include <algorithm>
#include <queue>
#include <tuple>

#include "policy/boreas_policy.h"
#include "policy/boreas_round.h"

namespace boreas::policy {

void BoreasScheduler::enter_group(JobId job, const state::ClusterView& view) {
  JobInfo& in = info(job, view);
  if (in.never_fits) {
    return;
  }
  const auto key = std::make_pair(in.class_value, static_cast<uint32_t>(in.queue));
  auto [it, added] = group_index_.try_emplace(key, static_cast<uint32_t>(groups_.size()));
  if (added) {
    groups_.push_back(RankGroup{in.class_value, static_cast<uint32_t>(in.queue), {}});
  }
  in.group = static_cast<int32_t>(it->second);
  in.group_attained = view.attained_gpu_us(job);
  groups_[it->second].jobs.emplace(in.group_attained, job.value());
}

void BoreasScheduler::leave_group(JobId job) {
  JobInfo& in = jobs_[job.value()];
  if (in.group >= 0) {
    groups_[in.group].jobs.erase({in.group_attained, job.value()});
    in.group = -1;
  }
}

// The journal's jobs since the last round, in id order (the order a walk over pending() meets
// new jobs, so queues are discovered in the same order); a new state is read whole.
void BoreasScheduler::sync_groups(const state::ClusterView& view) {
  const state::ClusterState& state = view.state();
  const auto journal = state.journal();
  if (!groups_synced_ || state.instance() != groups_instance_) {
    for (RankGroup& g : groups_) {
      for (const auto& [attained, id] : g.jobs) {
        jobs_[id].group = -1;
      }
      g.jobs.clear();
    }
    for (JobId j : view.pending()) {
      enter_group(j, view);
    }
    groups_journal_pos_ = journal.size();
    groups_instance_ = state.instance();
    groups_synced_ = true;
    return;
  }
  std::vector<JobId> moved(journal.begin() + static_cast<std::ptrdiff_t>(groups_journal_pos_), journal.end());
  groups_journal_pos_ = journal.size();
  std::sort(moved.begin(), moved.end());
  moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
  for (JobId j : moved) {
    leave_group(j);
    const JobState now = view.record(j).state;
    if (now == JobState::kPending || now == JobState::kPreempted) {  // both are in pending()
      enter_group(j, view);
    }
  }
}

void BoreasScheduler::rank(Round& r) {
  sync_groups(r.view);
  struct Order {
    int32_t neg_class;
    double share;
    uint32_t group;
    auto operator<=>(const Order&) const = default;
  };
  std::vector<Order> order;
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    if (!groups_[g].jobs.empty()) {
      order.push_back(Order{-groups_[g].class_value, fair_->share(groups_[g].queue, book_->weight(groups_[g].queue)), g});
    }
  }
  std::sort(order.begin(), order.end());
  std::vector<uint32_t> tied;
  for (size_t a = 0, b = 0; a < order.size(); a = b) {
    tied.clear();
    for (b = a; b < order.size() && order[b].neg_class == order[a].neg_class && order[b].share == order[a].share; ++b) {
      tied.push_back(order[b].group);
    }
    merge_groups(r, tied);
  }
}

// Appends the groups' jobs to the ranking in (attained, id) order: groups that tie on class and
// share rank their jobs by the rest of the key.
void BoreasScheduler::merge_groups(Round& r, std::span<const uint32_t> tied) {
  auto emit = [&](uint32_t id) {
    count_idle_wait(JobId(id), r.view.now());
    r.ranked.push_back(JobId(id));
    RankedGang& gang = r.gangs.emplace_back();
    gang.queue = static_cast<uint32_t>(jobs_[id].queue);
    gang.guessed = !guess_demand(JobId(id), r.view, gang.guess).empty();
  };
  if (tied.size() == 1) {
    for (const auto& [attained, id] : groups_[tied[0]].jobs) {
      emit(id);
    }
    return;
  }
  using Head = std::tuple<int64_t, uint32_t, uint32_t>;  // (attained, id, group)
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  for (uint32_t g : tied) {
    const auto& [attained, id] = *groups_[g].jobs.begin();
    heads.emplace(attained, id, g);
  }
  while (!heads.empty()) {
    const auto [attained, id, g] = heads.top();
    heads.pop();
    emit(id);
    const auto next = groups_[g].jobs.upper_bound({attained, id});
    if (next != groups_[g].jobs.end()) {
      heads.emplace(next->first, next->second, g);
    }
  }
}

}  // namespace boreas::policy
