// The `boreas` policy's quiet rounds. Most rounds follow an arrival or an end that changes nothing
// for the waiting gangs: when no waiting gang fits the free GPUs, none is owed by its queue's
// guarantee (so none searches for borrowers to reclaim) and none sits above a preemptible class
// running in its queue, the passes start and preempt nothing, and each ranked job gets the no-fit
// reason of its place in its queue's order (`behind-higher-priority` with the jobs of its queue
// ranked before it, or `no-fit` for the first). A quiet round skips the passes and leaves the groups
// as it ranked them; its plan carries the round's free GPUs and only the places that changed (plan.h:
// consecutive quiet rounds form a span), and a job that leaves its group during a span gets its
// reason written out in full.
#include <algorithm>

#include "policy/boreas_policy.h"
#include "policy/boreas_round.h"

namespace boreas::policy {

bool BoreasScheduler::round_is_quiet(Round& r) {
  if (!shortcuts_) {
    return false;
  }
  // A waiting job held last round has its idle wait counted when ranked: the passes do that. (Held
  // means GPUs it fits were free after the plan, so this needs nodes gone out of service since.)
  for (JobId j : idle_held_) {
    if (jobs_[j.value()].group >= 0 && !jobs_[j.value()].held_at.is_never()) {
      return false;
    }
  }
  return none_may_start(r);
}

// No waiting gang fits the free GPUs, none is owed and none may preempt its own queue. The
// smallest gang of each (group, guessed type) decides: a larger one fits no better, and `owed` is
// monotone in the gang's size (may_owe). Without preemption an owed gang only fails to fit.
bool BoreasScheduler::none_may_start(Round& r) {
  const uint64_t free = r.scratch.total_free();
  const bool preempt = options_.preemption.enabled;
  for (const RankGroup& g : groups_) {
    const uint32_t q = g.queue;
    if (g.sizes.empty()) {
      continue;
    }
    if (preempt && q < r.lowest_preemptible_class.size() && r.lowest_preemptible_class[q] < g.class_value) {
      return false;  // it may preempt a lower class of its own queue
    }
    if (preempt && may_owe(r, q)) {
      return false;  // it would search for borrowers to reclaim
    }
    int32_t last_type = -2;
    for (const auto& [key, count] : g.sizes) {
      const auto [type, gpus] = key;
      if (type != last_type && (type < 0 || gpus == 0 || gpus <= free)) {
        return false;
      }
      last_type = type;
    }
  }
  return true;
}

// What the passes would leave: the groups ranked (each in its order) and every ranked job's reason
// (in the plan, as the places that changed and the round's free GPUs).
void BoreasScheduler::run_quiet_round(Round& r) {
  const bool new_span = quiet_round_ == 0;
  std::vector<uint8_t> changed(groups_.size(), 0);
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    changed[g] = !groups_[g].added.empty() || groups_[g].left != 0 ? 1 : 0;
    tidy_group(g);
  }
  quiet_round_ = round_;
  quiet_count_ += 1;
  quiet_free_ = r.scratch.total_free();
  quiet_block_ = r.largest_block;
  place_quiet(new_span, changed);
}

// The places the book does not hold for this span: every ranked job's in a new span, else those of
// the groups whose jobs changed or whose queue's higher classes did. A job's ahead count is the
// jobs of its queue in higher classes, then those before it in its group.
void BoreasScheduler::place_quiet(bool new_span, const std::vector<uint8_t>& changed) {
  span_ += new_span ? 1 : 0;
  out_.quiet = QuietReasons{new_span, quiet_free_, quiet_block_, {}};
  if (!new_span && std::find(changed.begin(), changed.end(), 1) == changed.end()) {
    return;  // no group moved: every place stands
  }
  placed_higher_.resize(groups_.size(), 0);
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    const RankGroup& mine = groups_[g];
    uint32_t higher = 0;
    for (const RankGroup& h : groups_) {
      higher += h.queue == mine.queue && h.class_value > mine.class_value ? static_cast<uint32_t>(h.jobs.size()) : 0;
    }
    if (!new_span && !changed[g] && placed_higher_[g] == higher) {
      continue;
    }
    placed_higher_[g] = higher;
    uint32_t ahead = higher;
    for (const RankKey& key : mine.jobs) {
      const uint32_t j = key.second;
      if (placed_span_[j] != span_ || placed_ahead_[j] != ahead) {
        placed_span_[j] = span_;
        placed_ahead_[j] = ahead;
        sent_[j].kind = PendingKind::kNone;  // the book holds its place now
        out_.quiet->placed.push_back(QuietPlace{JobId(j), mine.queue, jobs_[j].gpus, ahead});
      }
      ahead += 1;
    }
  }
}

// Ranked in the last round, which was quiet, and in its group since.
bool BoreasScheduler::quiet_lazy(JobId job) const {
  if (quiet_round_ == 0 || job.value() >= jobs_.size()) {
    return false;
  }
  const JobInfo& in = jobs_[job.value()];
  return in.group >= 0 && in.entered_round <= quiet_round_;
}

// A job leaving its group during a span: its reason with the span's free GPUs as they are now (the
// book's would follow later quiet rounds).
void BoreasScheduler::materialize_quiet(JobId job) {
  if (quiet_lazy(job)) {
    const JobInfo& in = jobs_[job.value()];
    set_no_fit(job, no_fit_reason(static_cast<uint32_t>(in.queue), in.gpus, placed_ahead_[job.value()],
                                  quiet_free_, quiet_block_));
  }
}

// Before a round that runs the passes: the span ends, and its jobs keep its last free GPUs.
void BoreasScheduler::end_quiet_span() {
  quiet_round_ = 0;
}

}  // namespace boreas::policy

namespace boreas::policy {

bool BoreasScheduler::may_owe(Round& r, uint32_t queue) {
  if (!shortcuts_) {
    return true;
  }
  if (r.may_owe_at != r.widened) {
    r.may_owe.assign(book_->queue_count(), 0);
    for (const RankGroup& g : groups_) {
      int32_t last_type = -2;
      for (const auto& [key, count] : g.sizes) {
        const auto [type, gpus] = key;
        if (type == last_type || r.may_owe[g.queue]) {
          continue;
        }
        last_type = type;
        const RankedGang gang{g.queue, gpus, 0, false, true, TypeCount{GpuTypeId(static_cast<uint32_t>(std::max(type, 0))), gpus}};
        r.may_owe[g.queue] = type < 0 || gpus == 0 || owed_guess(gang) ? 1 : 0;
      }
    }
    r.may_owe_at = r.widened;
  }
  return queue >= r.may_owe.size() || r.may_owe[queue] != 0;
}

bool BoreasScheduler::cannot_start(const Round& r, const RankedGang& gang, bool owed) const {
  const uint32_t q = gang.queue;
  const bool own_victims = options_.preemption.enabled && q < r.lowest_preemptible_class.size() &&
                           r.lowest_preemptible_class[q] < gang.class_value;
  return shortcuts_ && !owed && !own_victims && r.scratch.total_free() < gang.gpus;
}

}  // namespace boreas::policy

namespace boreas::policy {

bool BoreasScheduler::may_owe_any(Round& r) {
  may_owe(r, 0);
  return std::any_of(r.may_owe.begin(), r.may_owe.end(), [](uint8_t m) { return m != 0; });
}

void BoreasScheduler::count_held_waits(Round& r) {
  for (JobId j : idle_held_) {
    if (jobs_[j.value()].group >= 0) {
      count_idle_wait(j, r.view.now());
    }
  }
}

bool BoreasScheduler::rest_cannot_start(Round& r) {
  const uint64_t free = r.scratch.total_free();
  if (free == r.stop_free && r.widened == r.stop_widened) {
    return false;  // nothing it reads moved since it said no
  }
  r.stop_free = free;
  r.stop_widened = r.widened;
  return none_may_start(r);
}

void BoreasScheduler::write_tail(Round& r, size_t walked) {
  for (size_t k = walked; k < r.ranked.size(); ++k) {  // ranked, not reached
    const RankedGang& gang = r.gangs[k];
    if (!gang.started) {
      no_fit(r, r.ranked[k], gang.gpus);
      r.waiting.resize(std::max<size_t>(r.waiting.size(), gang.queue + 1), 0);
      r.waiting[gang.queue] += 1;
    }
  }
  // Not ranked: every job of its queue ranked before it waits but those this round started.
  std::vector<uint32_t> started(book_->queue_count(), 0);
  for (const Start& st : r.plan.starts) {
    started[static_cast<size_t>(jobs_[st.job.value()].queue)] += 1;
  }
  const uint32_t free = r.scratch.total_free();
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    const RankGroup& mine = groups_[g];
    if (r.emitted[g] >= mine.jobs.size()) {
      continue;
    }
    size_t ahead = 0;
    for (const RankGroup& h : groups_) {
      ahead += h.queue == mine.queue && h.class_value > mine.class_value ? h.jobs.size() : 0;
    }
    ahead -= started[mine.queue];
    for (size_t p = r.emitted[g]; p < mine.jobs.size(); ++p) {
      const uint32_t id = mine.jobs[p].second;
      set_no_fit(JobId(id), no_fit_reason(mine.queue, jobs_[id].gpus, static_cast<uint32_t>(ahead + p), free, r.largest_block));
    }
  }
}

}  // namespace boreas::policy
