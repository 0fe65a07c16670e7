// The `boreas` policy's ranking: pending jobs by (class value desc, queue fair share, attained
// GPU-time, id). Inside one (class, queue) group the share is the same and a pending job's attained
// service does not change, so each group keeps its jobs in (attained, id) order, updated from the
// state's journal; a round orders the groups by (class, share) and merges the groups that tie.
#include <algorithm>
#include <functional>
#include <string>
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
    groups_.push_back(RankGroup{in.class_value, static_cast<uint32_t>(in.queue), {}, {}, {}, {}, {}});
  }
  in.group = static_cast<int32_t>(it->second);
  in.group_attained = view.attained_gpu_us(job);
  TypeCount guess;
  guess_demand(job, view, guess);  // sets in.guess_type
  RankGroup& g = groups_[it->second];
  g.added.emplace_back(in.group_attained, job.value());
  g.sizes[{in.guess_type, in.gpus}] += 1;
}

void BoreasScheduler::leave_group(JobId job) {
  materialize_quiet(job);  // its last reason, as the quiet round before left it
  JobInfo& in = jobs_[job.value()];
  if (in.group >= 0) {
    RankGroup& g = groups_[in.group];
    g.gone.emplace_back(in.group_attained, job.value());  // its entry goes stale: in_group() no longer holds
    const auto size = g.sizes.find({in.guess_type, in.gpus});
    if (--size->second == 0) {
      g.sizes.erase(size);
    }
    in.group = -1;
  }
}

// An entry is live while its job is still in the group under the same key.
bool BoreasScheduler::in_group(uint32_t group, const RankKey& key) const {
  const JobInfo& in = jobs_[key.second];
  return in.group == static_cast<int32_t>(group) && in.group_attained == key.first;
}

// Drops the stale entries and merges the added ones in, so the array holds the group's jobs in
// (attained, id) order, each once (a job that left and came back under the same key is in both).
void BoreasScheduler::tidy_group(uint32_t group) {
  RankGroup& g = groups_[group];
  if (g.added.empty() && g.gone.empty()) {
    return;
  }
  auto stale = [&](const RankKey& key) { return !in_group(group, key); };
  g.added.erase(std::remove_if(g.added.begin(), g.added.end(), stale), g.added.end());
  const size_t before = g.jobs.size();
  RankKey lo{INT64_MAX, UINT32_MAX};  // the keys of the entries removed or inserted
  RankKey hi{INT64_MIN, 0};
  drop_stale(group, lo, hi);
  std::sort(g.added.begin(), g.added.end());
  if (!g.added.empty()) {
    lo = std::min(lo, g.added.front());
    hi = std::max(hi, g.added.back());
  }
  merge_added(g);
  shift_placed(g, lo, hi, before);
}

// Merges the sorted `added` keys into the sorted array, each key once (a job that left and came back
// under the same key is there already); RankKeys::merge moves the shorter side.
void BoreasScheduler::merge_added(RankGroup& g) {
  g.jobs.merge(g.added);
}

// Drops the entries of the jobs that left, each found by its key (none when it left from `added`),
// reading no job record; RankKeys::drop moves the shorter side. A job that came back under the same
// key is in `added` too, and merged back in at the same place.
void BoreasScheduler::drop_stale(uint32_t group, RankKey& lo, RankKey& hi) {
  RankGroup& g = groups_[group];
  std::sort(g.gone.begin(), g.gone.end());
  g.jobs.drop(g.gone, lo, hi);
  g.gone.clear();
}

// The journal's jobs since the last round, in id order (the order a walk over pending() meets
// new jobs, so queues are discovered in the same order); the first round reads the state whole.
void BoreasScheduler::sync_groups(const state::ClusterView& view) {
  const state::ClusterState& state = view.state();
  const auto journal = state.journal();
  if (!groups_synced_) {
    end_quiet_span();
    for (RankGroup& g : groups_) {
      for (const auto& [attained, id] : g.jobs) {
        jobs_[id].group = -1;
      }
      for (const auto& [attained, id] : g.added) {
        jobs_[id].group = -1;
      }
      g.jobs.clear();
      g.added.clear();
      g.gone.clear();
      g.sizes.clear();
      g.placed.clear();
    }
    for (JobId j : view.pending()) {
      enter_group(j, view);
    }
    groups_journal_pos_ = journal.size();
    groups_synced_ = true;
    return;
  }
  std::vector<JobId>& moved = journal_moved_;  // kept for its capacity
  moved.assign(journal.begin() + static_cast<std::ptrdiff_t>(groups_journal_pos_), journal.end());
  groups_journal_pos_ = journal.size();
  std::sort(moved.begin(), moved.end());
  moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
  for (JobId j : moved) {
    leave_group(j);
    const JobState now = view.record(j).state;
    if ((now == JobState::kPending || now == JobState::kPreempted) && !view.record(j).held) {  // in pending()
      enter_group(j, view);
    }
  }
}

// The groups must be in step with the journal (sync_groups). Orders the groups; the jobs are
// ranked as the passes ask for them (emit_next).
void BoreasScheduler::rank(Round& r) {
  std::vector<GroupOrder>& order = group_order_;  // kept for its capacity
  order.clear();
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    tidy_group(g);
    if (!groups_[g].jobs.empty()) {
      order.push_back(GroupOrder{-groups_[g].class_value, fair_->share(groups_[g].queue, book_->weight(groups_[g].queue)), g});
    }
  }
  std::sort(order.begin(), order.end());
  r.rank_groups.clear();
  r.tie_end.assign(order.size(), 0);
  for (size_t a = 0, b = 0; a < order.size(); a = b) {
    for (b = a; b < order.size() && order[b].neg_class == order[a].neg_class && order[b].share == order[a].share; ++b) {
      r.rank_groups.push_back(order[b].group);
    }
    r.tie_end[a] = static_cast<uint32_t>(b);
  }
  r.emitted.assign(groups_.size(), 0);
  count_unranked();
}

void BoreasScheduler::count_unranked() {
  unranked_.assign(book_->queue_count(), 0);
  for (const RankGroup& g : groups_) {
    unranked_[g.queue] += static_cast<uint32_t>(g.jobs.size());
  }
  owed_left_known_ = false;
}

void BoreasScheduler::emit(Round& r, uint32_t id) {
  JobInfo& in = jobs_[id];
  if (--unranked_[static_cast<size_t>(in.queue)] == 0) {
    owed_left_known_ = false;  // a queue's last job is ranked: no_owed_job_left may say yes now
  }
  in.rank_pos = static_cast<uint32_t>(r.ranked.size());
  r.ranked.push_back(JobId(id));
  RankedGang& gang = r.gangs.emplace_back();
  gang.queue = static_cast<uint32_t>(in.queue);
  gang.gpus = in.gpus;
  gang.class_value = in.class_value;
  gang.started = in.started_round == round_;  // when ranked again after this round's starts (restart_ranking)
  starts_unranked_ -= gang.started && starts_unranked_ > 0 ? 1 : 0;
  gang.guessed = in.guess_type >= 0;  // guess_demand's answer, looked up when the job entered its group
  if (gang.guessed) {
    gang.guess = TypeCount{GpuTypeId(static_cast<uint32_t>(in.guess_type)), in.gpus};
  }
}

void BoreasScheduler::restart_ranking(Round& r) {
  r.ranked.clear();
  r.gangs.clear();
  r.emitted.assign(groups_.size(), 0);
  count_unranked();
  r.next_tie = 0;
  r.single = UINT32_MAX;
  r.heads = {};
}

// Whether no job left to the guarantee pass may be owed: job `at`, the last ranked, and those not
// ranked yet are all of queues no gang of which may be owed (may_owe, its answers current). Nothing
// moves the books then, so the pass would try none of them. Read again only once may_owe's answers
// or a queue's last job's ranking may have changed it.
bool BoreasScheduler::no_owed_job_left(Round& r, size_t at) {
  if (at + 1 != r.ranked.size()) {
    return false;
  }
  const uint32_t q_at = r.gangs[at].queue;
  if (q_at >= r.may_owe.size() || r.may_owe[q_at] != 0) {
    return false;
  }
  if (owed_left_known_ && owed_left_at_ == r.may_owe_at && owed_left_books_ == r.may_owe_books) {
    return false;  // it said no, and nothing it reads moved since
  }
  owed_left_known_ = true;
  owed_left_at_ = r.may_owe_at;
  owed_left_books_ = r.may_owe_books;
  for (uint32_t q = 0; q < unranked_.size(); ++q) {
    const bool owes = q >= r.may_owe.size() || r.may_owe[q] != 0;
    if (owes && unranked_[q] > 0) {
      return false;
    }
  }
  return true;
}

// The next job in (class, share, attained, id) order: groups that tie on class and share rank
// their jobs by the rest of the key.
bool BoreasScheduler::emit_next(Round& r) {
  for (;;) {
    if (r.single != UINT32_MAX) {
      const RankKeys& jobs = groups_[r.single].jobs;
      uint32_t& at = r.emitted[r.single];
      if (at < jobs.size()) {
        emit(r, jobs[at++].second);
        return true;
      }
      r.single = UINT32_MAX;
    }
    if (!r.heads.empty()) {
      const auto [attained, id, g, at] = r.heads.top();
      r.heads.pop();
      emit(r, id);
      r.emitted[g] = at + 1;
      if (at + 1 < groups_[g].jobs.size()) {
        const auto& [next_attained, next_id] = groups_[g].jobs[at + 1];
        r.heads.emplace(next_attained, next_id, g, at + 1);
      }
      return true;
    }
    if (r.next_tie >= r.rank_groups.size()) {
      return false;
    }
    const size_t end = r.tie_end[r.next_tie];
    if (end - r.next_tie == 1) {
      r.single = r.rank_groups[r.next_tie];
    } else {
      for (size_t k = r.next_tie; k < end; ++k) {
        const uint32_t g = r.rank_groups[k];
        const auto& [attained, id] = groups_[g].jobs.front();
        r.heads.emplace(attained, id, g, 0);
      }
    }
    r.next_tie = end;
  }
}

Status BoreasScheduler::check_rank_groups(const state::ClusterView& view) const {
  std::map<std::pair<int32_t, uint32_t>, std::vector<RankKey>> expected;
  for (JobId j : view.pending()) {
    const JobInfo& in = jobs_[j.value()];
    if (!in.never_fits) {
      expected[{in.class_value, static_cast<uint32_t>(in.queue)}].emplace_back(view.attained_gpu_us(j), j.value());
    }
  }
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    const RankGroup& group = groups_[g];
    const bool merged = group.added.empty() && group.gone.empty();  // as tidy_group leaves it
    if (merged && !std::all_of(group.jobs.begin(), group.jobs.end(), [&](const RankKey& k) { return in_group(g, k); })) {
      return internal_error("rank group (class " + std::to_string(group.class_value) + ", queue " +
                            book_->name(group.queue) + ") keeps a stale entry after its merge");
    }
    const auto unsorted = std::adjacent_find(group.jobs.begin(), group.jobs.end(), std::greater_equal<>());
    if (merged && unsorted != group.jobs.end()) {
      return internal_error("rank group (class " + std::to_string(group.class_value) + ", queue " +
                            book_->name(group.queue) + ") is out of strict (attained, id) order");
    }
    std::vector<RankKey> live;
    const auto live_key = [&](const RankKey& k) { return in_group(g, k); };
    std::copy_if(group.jobs.begin(), group.jobs.end(), std::back_inserter(live), live_key);
    std::copy_if(group.added.begin(), group.added.end(), std::back_inserter(live), live_key);
    std::sort(live.begin(), live.end());
    live.erase(std::unique(live.begin(), live.end()), live.end());
    auto it = expected.find({groups_[g].class_value, groups_[g].queue});
    std::vector<RankKey> want = it == expected.end() ? std::vector<RankKey>{} : it->second;
    std::sort(want.begin(), want.end());
    if (live != want) {
      return internal_error("rank group (class " + std::to_string(groups_[g].class_value) + ", queue " +
                              book_->name(groups_[g].queue) + ") holds " + std::to_string(live.size()) +
                              " jobs, from scratch " + std::to_string(want.size()));
    }
    if (it != expected.end()) {
      expected.erase(it);
    }
  }
  return expected.empty() ? Status::ok() : internal_error("pending jobs of a (class, queue) with no rank group");
}

}  // namespace boreas::policy
