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
#include <string>

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
  const bool after_full = quiet_round_ == 0;  // the groups were ranked (and counted) otherwise since
  std::vector<uint8_t>& changed = quiet_changed_;  // kept for its capacity
  changed.assign(groups_.size(), 0);
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    changed[g] = !groups_[g].added.empty() || !groups_[g].gone.empty() ? 1 : 0;
    tidy_group(g);
  }
  quiet_round_ = round_;
  quiet_count_ += 1;
  share_free(r.scratch.total_free(), r.largest_block);
  place_quiet(after_full, changed);
}

// Every ranked job joins the shared set (plan.h). The places the book does not hold: after a full
// round any job's may differ, else only those of the groups whose jobs changed or whose queue's
// higher classes did (place_group skips the others). A job's ahead count is the jobs of its queue
// in higher classes, then those before it in its group.
void BoreasScheduler::place_quiet(bool after_full, const std::vector<uint8_t>& changed) {
  if (!after_full && std::find(changed.begin(), changed.end(), 1) == changed.end()) {
    return;  // no group moved: every place stands
  }
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    place_group(g, 0, jobs_in_higher_classes(groups_[g]));
  }
}

uint32_t BoreasScheduler::jobs_in_higher_classes(const RankGroup& mine) const {
  size_t higher = 0;
  for (const RankGroup& h : groups_) {
    higher += h.queue == mine.queue && h.class_value > mine.class_value ? h.jobs.size() : 0;
  }
  return static_cast<uint32_t>(higher);
}

void BoreasScheduler::place_group(uint32_t group, uint32_t from, uint32_t base) {
  RankGroup& g = groups_[group];
  const uint32_t kept_base = base + lowered(g.queue);  // as the ranges keep it: modulo 2^32
  const auto size = static_cast<uint32_t>(g.jobs.size());
  auto place = [&](uint32_t to, uint32_t& p) {
    for (; p < to; ++p) {
      const uint32_t id = g.jobs[p].second;
      if (!holds_place(id, g.queue, base + p)) {  // read the job's record only for a place it sends
        place_shared(JobId(id), g.queue, jobs_[id].gpus, base + p);
      }
    }
  };
  uint32_t p = from;
  for (const RankGroup::Placed& k : g.placed) {
    if (k.base == kept_base && k.to > p) {
      wrapped_places_reused_ += base > static_cast<uint32_t>(INT32_MAX) ? 1 : 0;  // a caller's base below 0
      place(std::min(k.from, size), p);
      p = std::max(p, std::min(k.to, size));
    }
  }
  place(size, p);
  std::erase_if(g.placed, [&](const RankGroup::Placed& k) { return k.from >= from; });
  if (!g.placed.empty()) {
    g.placed.back().to = std::min(g.placed.back().to, from);
  }
  g.placed.push_back(RankGroup::Placed{from, size, kept_base});
}

// Entries before the first changed key kept their positions; those after the last moved by what
// was removed less what was inserted, and their places with them. The rest is forgotten.
void BoreasScheduler::shift_placed(RankGroup& g, const RankKey& lo, const RankKey& hi, size_t before) {
  if (g.placed.empty() || hi < lo) {
    return;  // nothing placed, or nothing changed
  }
  const auto first = static_cast<int64_t>(std::lower_bound(g.jobs.begin(), g.jobs.end(), lo) - g.jobs.begin());
  const auto after = static_cast<int64_t>(std::upper_bound(g.jobs.begin(), g.jobs.end(), hi) - g.jobs.begin());
  const int64_t shift = static_cast<int64_t>(before) - static_cast<int64_t>(g.jobs.size());  // old = new + shift
  std::vector<RankGroup::Placed>& kept = placed_kept_;  // kept for its capacity
  kept.clear();
  for (const RankGroup::Placed& k : g.placed) {
    if (k.from < first) {
      kept.push_back({k.from, static_cast<uint32_t>(std::min<int64_t>(k.to, first)), k.base});
    }
  }
  for (const RankGroup::Placed& k : g.placed) {
    const int64_t from = std::max<int64_t>(k.from, after + shift);
    if (from < k.to) {
      kept.push_back({static_cast<uint32_t>(from - shift), static_cast<uint32_t>(k.to - shift),
                      k.base + static_cast<uint32_t>(shift)});  // modulo 2^32, as the book's places
    }
  }
  constexpr size_t kMostRanges = 8;  // a bound on the walk; a range forgotten is only placed again
  if (kept.size() > kMostRanges) {
    kept.erase(kept.begin(), kept.end() - kMostRanges);
  }
  g.placed.swap(kept);
}

// The round's starts lower the shared set's ahead counts of their queues (plan.h): every start is
// ranked before the set's members. Returns the starts by queue.
const std::vector<uint32_t>& BoreasScheduler::lower_shared_by_starts(const Round& r) {
  std::vector<uint32_t>& started = started_by_queue_;  // kept for its capacity
  started.assign(book_->queue_count(), 0);
  for (const Start& st : r.plan.starts) {
    started[static_cast<size_t>(jobs_[st.job.value()].queue)] += 1;
  }
  for (uint32_t q = 0; q < started.size(); ++q) {
    if (started[q] > 0) {
      lowered_.resize(std::max<size_t>(lowered_.size(), q + 1), 0);
      lowered_[q] += started[q];
      out_.shared->lowered.push_back(SharedLowered{q, started[q]});
    }
  }
  return started;
}

void BoreasScheduler::forget_ranked(const Round& r) {
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    RankGroup& group = groups_[g];
    if (!group.forgot_ranked) {
      continue;
    }
    group.forgot_ranked = false;
    forget_placed_before(group, r.emitted[g]);
  }
}

// The shared set's free GPUs from now on (its members' reasons follow them).
void BoreasScheduler::share_free(uint32_t free, uint32_t largest_block) {
  if (!out_.shared) {
    out_.shared.emplace();
    out_.shared->placed.reserve(round_places_);
    out_.shared->new_span = span_ == 0;
    if (span_ == 0) {
      lowered_.clear();  // the book's new span starts with none lowered
    }
    span_ = std::max<uint32_t>(span_, 1);
  }
  out_.shared->free = free;
  out_.shared->largest_block = largest_block;
  shared_free_ = free;
  shared_block_ = largest_block;
}

// In the shared set with this place (share_free gave the round's free GPUs).
bool BoreasScheduler::place_shared(JobId job, uint32_t queue, uint32_t need, uint32_t ahead) {
  const uint32_t j = job.value();
  if (holds_place(j, queue, ahead)) {
    return false;
  }
  sent_place_[j] = SentPlace{span_, ahead + lowered(queue)};  // the book holds its place now
  out_.shared->placed.push_back(SharedPlace{job, queue, need, ahead});
  return true;
}

// A job of the shared set that leaves it without another reason (it starts, leaves its queue's
// order, or a pass tried it and wrote nothing): its reason with the free GPUs it last waited with.
void BoreasScheduler::materialize_quiet(JobId job) {
  if (span_ != 0 && sent_place_[job.value()].span == span_) {
    const JobInfo& in = jobs_[job.value()];
    const auto q = static_cast<uint32_t>(in.queue);
    set_no_fit(job, no_fit_reason(q, in.gpus, sent_place_[job.value()].ahead - lowered(q), shared_free_,
                                  shared_block_));
  }
}

Status BoreasScheduler::check_placed_ranges() const {
  for (const RankGroup& g : groups_) {
    for (const RankGroup::Placed& k : g.placed) {
      for (uint32_t p = k.from; p < std::min<size_t>(k.to, g.jobs.size()); ++p) {
        const uint32_t id = g.jobs[p].second;
        const SentPlace& sent = sent_place_[id];
        if (sent.span != span_ || sent.ahead != k.base + p) {
          return internal_error("rank group (class " + std::to_string(g.class_value) + ", queue " +
                                book_->name(g.queue) + ") keeps the place of job " + std::to_string(id) +
                                " at position " + std::to_string(p) + " that the book does not hold");
        }
      }
    }
  }
  return Status::ok();
}

// Before a round that runs the passes: the next quiet round checks every place again.
void BoreasScheduler::end_quiet_span() {
  quiet_round_ = 0;
}

}  // namespace boreas::policy

namespace boreas::policy {

bool BoreasScheduler::may_owe(Round& r, uint32_t queue) {
  if (!shortcuts_) {
    return true;
  }
  if (r.may_owe_at != r.widened || r.may_owe_books != books_version()) {
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
    r.may_owe_books = books_version();
    r.owe_any = std::any_of(r.may_owe.begin(), r.may_owe.end(), [](uint8_t m) { return m != 0; });
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
  may_owe(r, 0);  // brings the answers up to date
  return r.owe_any;
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
  if (free == r.stop_free && r.widened == r.stop_widened && books_version() == r.stop_books) {
    return false;  // nothing it reads moved since it said no
  }
  r.stop_free = free;
  r.stop_widened = r.widened;
  r.stop_books = books_version();
  return none_may_start(r);
}

// The jobs not reached join the shared set (plan.h) with this round's free GPUs. The set's members
// are the jobs not reached (the pass gave every job it reached another entry), and the round's
// starts are ranked before them (but those of the guarantee pass past the stop), so the plan lowers
// the places of each queue by its starts; every member's count is still compared below (or found
// in a kept range), so only the places the lowering did not make right are listed.
void BoreasScheduler::write_tail(Round& r, size_t walked) {
  forget_ranked(r);
  share_free(r.scratch.total_free(), r.largest_block);
  const std::vector<uint32_t>& started = lower_shared_by_starts(r);
  for (size_t k = walked; k < r.ranked.size(); ++k) {  // ranked, not reached
    const RankedGang& gang = r.gangs[k];
    if (!gang.started) {
      r.waiting.resize(std::max<size_t>(r.waiting.size(), gang.queue + 1), 0);
      if (place_shared(r.ranked[k], gang.queue, gang.gpus, r.waiting[gang.queue])) {
        forget_placed(r.ranked[k]);
      }
      r.waiting[gang.queue] += 1;
    }
  }
  // Not ranked: every job of its queue ranked before it waits but those this round started.
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    const RankGroup& mine = groups_[g];
    if (r.emitted[g] >= mine.jobs.size()) {
      continue;
    }
    place_group(g, r.emitted[g], jobs_in_higher_classes(mine) - started[mine.queue]);
  }
}

}  // namespace boreas::policy
