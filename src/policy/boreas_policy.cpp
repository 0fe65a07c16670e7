#include "policy/boreas_policy.h"

#include <algorithm>
#include <limits>
#include <string>

#include "policy/boreas_round.h"
#include "policy/round_free.h"

namespace boreas::policy {

namespace {
constexpr int kGuaranteeRepeats = 4;  // bounds a round; one repeat sufficed on the Philly trace
}  // namespace


BoreasScheduler::BoreasScheduler(TenancyOptions options, std::unique_ptr<Placement> placement)
    : options_(std::move(options)),
      placement_(std::move(placement)),
      monotone_placement_(placement_is_monotone(placement_->name())),
      guard_(options_.preemption) {}

BoreasScheduler::~BoreasScheduler() = default;

void BoreasScheduler::init(const state::ClusterView& view) {
  catalog_size_ = view.cluster().catalog.size();
  if (!book_) {
    book_ = std::make_unique<QuotaBook>(options_.queues.get(), view.cluster());
    covered_ = std::make_unique<QuotaBook>(options_.queues.get(), view.cluster());
    fair_ = std::make_unique<FairShare>(view.cluster(), options_.fair_share);
  }
  if (jobs_.size() < view.job_count()) {
    jobs_.resize(view.job_count());
    sent_place_.resize(view.job_count());
    sent_no_fit_.resize(view.job_count());
    held_demand_.resize(view.job_count());
    held_known_.resize(view.job_count(), 0);
    counted_.resize(view.job_count());
  }
  sync_held_demands(view);
}

double BoreasScheduler::queue_share(std::string_view queue) const {
  for (uint32_t q = 0; book_ && q < book_->queue_count(); ++q) {
    if (book_->name(q) == queue) {
      return fair_->share(q, book_->weight(q));
    }
  }
  return 0;
}

void BoreasScheduler::set_reason(JobId job, PendingReason reason) {
  sent_place_[job.value()] = SentPlace{};
  sent_no_fit_[job.value()] = NoFitReason{};
  forget_placed(job);
  out_.exact.push_back(std::move(reason));
  out_.jobs.push_back(JobReason{job, NoFitReason{}});
}

// The queues first named this round, then the round's reasons.
void BoreasScheduler::take_reasons(Plan& plan) {
  for (; book_ && named_queues_ < book_->queue_count(); ++named_queues_) {
    out_.queues.push_back(book_->name(named_queues_));
  }
  round_places_ = out_.shared ? out_.shared->placed.size() : 0;
  plan.reasons = std::move(out_);
  out_ = Reasons{};
}

BoreasScheduler::JobInfo& BoreasScheduler::info(JobId job, const state::ClusterView& view) {
  JobInfo& in = jobs_[job.value()];
  if (in.queue >= 0) {
    return in;
  }
  const JobSpec& spec = view.spec(job);
  in.gpus = spec.gpus;
  in.queue = static_cast<int32_t>(book_->queue_of(spec.queue, view.state().symbols()));
  covered_->queue_of(spec.queue, view.state().symbols());  // the same index: both add queues in this order
  auto it = classes_.find(spec.priority_class.index());
  if (it == classes_.end()) {
    it = classes_.emplace(spec.priority_class.index(), find_class(spec.priority_class, view)).first;
  }
  in.class_value = it->second ? it->second->value : 0;
  in.class_preemptible = it->second ? it->second->preemptible : true;
  in.beyond_guarantee = beyond_guarantee(spec, static_cast<uint32_t>(in.queue), view);
  if (auto reason = never_fits(spec, static_cast<uint32_t>(in.queue), view)) {
    in.never_fits = true;
    set_reason(job, *reason);
  }
  return in;
}

// Points into options_.queues, which outlives the scheduler's use of it; nullptr when unknown.
const PriorityClass* BoreasScheduler::find_class(Symbol name_symbol, const state::ClusterView& view) const {
  if (!options_.queues) {
    return nullptr;
  }
  const std::string_view name = view.state().symbols().view(name_symbol);
  const PriorityClass* found = nullptr;
  for (const PriorityClass& pc : options_.queues->priority_classes) {
    found = pc.name == name ? &pc : found;
  }
  return found;
}

std::optional<PendingReason> BoreasScheduler::never_fits(const JobSpec& spec, uint32_t queue,
                                                         const state::ClusterView& view) {
  // A job that may never be preempted never borrows reclaimable capacity: its ceiling is its
  // guarantee or the capacity no guarantee covers.
  const bool pinned_only = !spec.preemptible || !jobs_[spec.id.value()].class_preemptible;
  uint64_t most = 0;
  for (GpuTypeId t : types_.allowed(spec, view)) {
    const TypeBounds& b = type_bounds(queue, t);
    most = std::max(most, pinned_only ? std::min(b.ceiling, b.own) : b.ceiling);
  }
  if (spec.gpus <= most) {
    return std::nullopt;
  }
  PendingReason r;
  r.kind = PendingKind::kNeverFits;
  r.queue = book_->name(queue);
  r.need = spec.gpus;
  r.ceiling = most;
  return r;
}

bool BoreasScheduler::beyond_guarantee(const JobSpec& spec, uint32_t queue, const state::ClusterView& view) {
  uint64_t most = 0;
  for (GpuTypeId t : types_.allowed(spec, view)) {
    most = std::max(most, type_bounds(queue, t).guaranteed);
  }
  return spec.gpus > most;
}

const BoreasScheduler::TypeBounds& BoreasScheduler::type_bounds(uint32_t queue, GpuTypeId type) {
  const size_t at = static_cast<size_t>(queue) * catalog_size_ + type.value();
  if (at >= type_bounds_.size()) {
    type_bounds_.resize(book_->queue_count() * catalog_size_);
  }
  TypeBounds& b = type_bounds_[at];
  if (!b.known) {
    b.known = true;
    b.ceiling = book_->max_gpus(queue, type);
    b.guaranteed = book_->max_guaranteed(queue, type);
    b.own = std::max(b.guaranteed, book_->unguaranteed(type));
  }
  return b;
}

const Demand& BoreasScheduler::held_demand(JobId job, const state::ClusterView& view) {
  if (!held_known_[job.value()]) {
    demand_into(view.record(job).gpus, view, held_demand_[job.value()]);  // into its kept capacity
    held_known_[job.value()] = 1;
  }
  return held_demand_[job.value()];
}

// Forgets the demand of every job the journal shows moving since the last round; a new state
// the first round reads them all (a policy object sees one state for its life).
void BoreasScheduler::sync_held_demands(const state::ClusterView& view) {
  const state::ClusterState& state = view.state();
  const auto journal = state.journal();
  if (!held_synced_ || journal.size() < held_journal_pos_) {
    std::fill(held_known_.begin(), held_known_.end(), 0);
    held_synced_ = true;
  } else {
    for (size_t i = held_journal_pos_; i < journal.size(); ++i) {
      held_known_[journal[i].value()] = 0;
    }
  }
  held_journal_pos_ = journal.size();
}

Status BoreasScheduler::check_kept_state(const state::ClusterView& view) const {
  for (JobId j : view.running()) {
    if (!held_known_[j.value()]) {
      continue;
    }
    if (!same_demand(held_demand_[j.value()], demand_of(view.record(j).gpus, view))) {
      return internal_error("kept demand of running job " + std::to_string(j.value()) + " differs from its GPUs'");
    }
  }
  for (size_t at = 0; at < type_bounds_.size(); ++at) {
    const TypeBounds& b = type_bounds_[at];
    const auto q = static_cast<uint32_t>(at / catalog_size_);
    const GpuTypeId t(static_cast<uint32_t>(at % catalog_size_));
    const uint64_t guaranteed = book_->max_guaranteed(q, t);
    if (b.known && (b.ceiling != book_->max_gpus(q, t) || b.guaranteed != guaranteed ||
                    b.own != std::max(guaranteed, book_->unguaranteed(t)))) {
      return internal_error("kept bounds of queue " + book_->name(q) + " differ from the books'");
    }
  }
  const Status groups = check_rank_groups(view);
  return groups.is_ok() ? check_placed_ranges() : groups;
}

std::span<const TypeCount> BoreasScheduler::guess_demand(JobId job, const state::ClusterView& view, TypeCount& out) {
  JobInfo& in = jobs_[job.value()];
  int32_t& type = in.guess_type;
  if (type == -2) {
    type = -1;
    // The first allowed type the cluster has (the catalog lists types the cluster may lack).
    for (GpuTypeId t : types_.allowed(view.spec(job), view)) {
      if (book_->capacity(t) > 0) {
        type = static_cast<int32_t>(t.value());
        break;
      }
    }
  }
  if (type < 0) {
    return {};
  }
  out = TypeCount{GpuTypeId(static_cast<uint32_t>(type)), in.gpus};
  return std::span<const TypeCount>(&out, 1);
}

// Whether the pending gang (by its guessed demand) is owed, from the known bounds when the books
// did not change since they were learned.
bool BoreasScheduler::owed_guess(const RankedGang& gang) {
  const uint32_t q = gang.queue;
  const TypeCount& guess = gang.guess;
  const auto demand = gang.guessed ? std::span<const TypeCount>(&guess, 1) : std::span<const TypeCount>();
  if (demand.empty() || guess.gpus == 0) {
    return book_->owed(q, demand, *covered_);
  }
  const size_t types = catalog_size_;
  if (owed_book_version_ != book_->version() || owed_covered_version_ != covered_->version()) {
    owed_known_.assign(book_->queue_count() * types, OwedBounds{});
    owed_book_version_ = book_->version();
    owed_covered_version_ = covered_->version();
  }
  const size_t at = static_cast<size_t>(q) * types + guess.type.value();
  if (at >= owed_known_.size()) {
    owed_known_.resize(book_->queue_count() * types);
  }
  OwedBounds& known = owed_known_[at];
  if (guess.gpus <= known.owed_up_to || guess.gpus >= known.refused_from) {
    return guess.gpus <= known.owed_up_to;
  }
  const bool owed = book_->owed(q, demand, *covered_);
  (owed ? known.owed_up_to : known.refused_from) = guess.gpus;
  return owed;
}

// The group the last of `walked` ranked jobs came from, when it is a tie set of its own and has
// jobs left after it (the first at r.emitted[group]); UINT32_MAX otherwise.
uint32_t BoreasScheduler::group_left_after_last_ranked(const Round& r, size_t walked) const {
  const uint32_t g = r.single;
  if (walked != r.ranked.size() || g == UINT32_MAX) {
    return UINT32_MAX;
  }
  const RankGroup& group = groups_[g];
  const uint32_t from = r.emitted[g];
  const bool left = from > 0 && from < group.jobs.size() && group.jobs[from - 1].second == r.ranked.back().value();
  return left ? g : UINT32_MAX;
}

// After the first guarantee pass walked job `at`, the last ranked, untried: when it came from a
// group that is a tie set of its own and its queue may not owe (may_owe's answers are current, and
// nothing moves while no job is tried), the pass would try none of the group's jobs, and neither of
// its stops would fire among them (their queue owes nothing). The group's rest is left unranked.
bool BoreasScheduler::leave_unowed_group(Round& r, size_t at) {
  const uint32_t g = group_left_after_last_ranked(r, at + 1);
  if (g == UINT32_MAX) {
    return false;
  }
  const uint32_t q = groups_[g].queue;
  if (r.may_owe_at != r.widened || r.may_owe_books != books_version() || q >= r.may_owe.size() ||
      r.may_owe[q] != 0) {
    return false;
  }
  r.single = UINT32_MAX;  // emit_next goes on with the next tie set
  return true;
}

// Whether a job this round started and the ranking has not reached again sits in the group at
// `from` or later (after restart_ranking only: otherwise every start was ranked when it started).
bool BoreasScheduler::holds_unranked_start(const Round& r, uint32_t g, uint32_t from) const {
  if (starts_unranked_ == 0) {
    return false;
  }
  const RankKey& first = groups_[g].jobs[from];
  return std::any_of(r.plan.starts.begin(), r.plan.starts.end(), [&](const Start& st) {
    const JobInfo& in = jobs_[st.job.value()];
    return in.group == static_cast<int32_t>(g) && !(RankKey{in.group_attained, st.job.value()} < first);
  });
}

// Whether a gang of the group may be owed, as owed_guess answers for its smallest gang of each
// guessed type (owed is monotone in the size); a gang with no type of the cluster or no GPUs may be.
bool BoreasScheduler::group_may_be_owed(const RankGroup& group) {
  int32_t last_type = -2;
  for (const auto& [key, count] : group.sizes) {
    const auto [type, gpus] = key;
    if (type == last_type) {
      continue;
    }
    last_type = type;
    if (type < 0 || gpus == 0) {
      return true;
    }
    const RankedGang gang{group.queue, gpus, group.class_value, false, true,
                          TypeCount{GpuTypeId(static_cast<uint32_t>(type)), gpus}};
    if (owed_guess(gang)) {
      return true;
    }
  }
  return false;
}

// After pass 2 walked job `walked - 1`, blocked, the last one ranked: when it came from a group
// that is a tie set of its own, the rest of that group is skipped if none of it can start. Nothing
// the stop test reads moves while blocked jobs are walked, so the pass would not stop among them.
bool BoreasScheduler::skip_blocked_run(Round& r, size_t walked, size_t evicted) {
  const uint32_t g = group_left_after_last_ranked(r, walked);
  if (g == UINT32_MAX || r.evicted.size() != evicted) {
    return false;
  }
  const RankGroup& group = groups_[g];
  const uint32_t from = r.emitted[g];
  const uint32_t q = group.queue;
  // As the pass's `owed` and cannot_start would answer for each of them.
  const bool known = r.may_owe_at == r.widened && q < r.may_owe.size();
  const bool may_be_owed = (known ? r.may_owe[q] != 0 : may_owe(r, q)) && group_may_be_owed(group);
  const bool own_victims = options_.preemption.enabled && q < r.lowest_preemptible_class.size() &&
                           r.lowest_preemptible_class[q] < group.class_value;
  uint32_t smallest = UINT32_MAX;
  for (const auto& [key, count] : group.sizes) {
    smallest = std::min(smallest, key.second);
  }
  if (may_be_owed || own_victims || smallest <= r.scratch.total_free() || holds_unranked_start(r, g, from)) {
    return false;
  }
  // The jobs before the run are the group's last to get entries this round: the places from the
  // run on stand (forget_ranked would drop them, the group now ranked to its end).
  RankGroup& kept = groups_[g];
  if (kept.forgot_ranked) {
    kept.forgot_ranked = false;
    forget_placed_before(kept, from);
  }
  blocked_runs_.push_back(BlockedRun{g, from, r.waiting[q], r.scratch.total_free()});
  r.waiting[q] += static_cast<uint32_t>(group.jobs.size() - from);
  unranked_[q] -= static_cast<uint32_t>(group.jobs.size() - from);
  owed_left_known_ = false;
  r.emitted[g] = static_cast<uint32_t>(group.jobs.size());  // ranked: the tail (write_tail) is past it
  blocked_runs_skipped_ += 1;
  return true;
}

void BoreasScheduler::write_blocked_run_one_by_one(Round& r, const BlockedRun& run) {
  const RankGroup& group = groups_[run.group];
  uint32_t ahead = run.ahead;
  for (size_t p = run.from; p < group.jobs.size(); ++p, ++ahead) {
    const uint32_t id = group.jobs[p].second;
    set_no_fit(JobId(id), no_fit_reason(group.queue, jobs_[id].gpus, ahead, static_cast<uint32_t>(run.free),
                                        r.largest_block));
  }
}

// The reasons of the runs pass 2 skipped: a run whose free GPUs are the round's last joins the
// shared set (the set's free GPUs are the round's; a round that did not stop gave every member
// another entry, so its members are these runs); the others one by one.
void BoreasScheduler::write_blocked_runs(Round& r) {
  const uint64_t free = r.scratch.total_free();
  for (const BlockedRun& run : blocked_runs_) {
    if (run.free != free) {
      write_blocked_run_one_by_one(r, run);
      continue;
    }
    if (!out_.shared) {
      share_free(static_cast<uint32_t>(free), r.largest_block);
      lower_shared_by_starts(r);  // a run whose count moved by its queue's starts stands in the book
    }
    place_group(run.group, run.from, run.ahead - run.from);  // position p waits behind ahead + p - from
  }
  blocked_runs_.clear();
}

void BoreasScheduler::take_arrays(Round& r) {
  r.lowest_preemptible_class.swap(kept_arrays_.lowest_preemptible_class);
  r.waiting.swap(kept_arrays_.waiting);
  r.may_owe.swap(kept_arrays_.may_owe);
  r.rank_groups.swap(kept_arrays_.rank_groups);
  r.tie_end.swap(kept_arrays_.tie_end);
  r.emitted.swap(kept_arrays_.emitted);
}

void BoreasScheduler::keep_arrays(Round& r) {
  auto keep = [](auto& from_round, auto& kept) {
    from_round.clear();
    kept.swap(from_round);
  };
  keep(r.lowest_preemptible_class, kept_arrays_.lowest_preemptible_class);
  keep(r.waiting, kept_arrays_.waiting);
  keep(r.may_owe, kept_arrays_.may_owe);
  keep(r.rank_groups, kept_arrays_.rank_groups);
  keep(r.tie_end, kept_arrays_.tie_end);
  keep(r.emitted, kept_arrays_.emitted);
  keep(r.free_by_type, round_free_.by_type);
  scratch_kept_ = r.scratch.take_storage();  // the round's last use of its scratch
}

Plan BoreasScheduler::schedule(const state::ClusterView& view) {
  init(view);
  round_ += 1;
  Round r(view, options_.preemption.max_per_round, std::move(scratch_kept_));
  take_arrays(r);
  round_free(view, round_free_);
  r.free_by_type.swap(round_free_.by_type);
  r.largest_block = round_free_.largest_block;
  account(r);
  sync_groups(view);
  if (round_is_quiet(r)) {
    run_quiet_round(r);
    last_held_ = held_;
    keep_arrays(r);
    take_reasons(r.plan);
    return std::move(r.plan);
  }
  end_quiet_span();
  out_.jobs.reserve(full_round_reasons_);
  count_held_waits(r);
  rank(r);
  in_passes_ = true;
  r.ranked.swap(ranked_kept_);  // the arrays of the last full round, emptied: no allocation
  r.gangs.swap(gangs_kept_);
  auto owed = [&](size_t i) {
    const uint32_t q = r.gangs[i].queue;
    const bool known = r.may_owe_at == r.widened && q < r.may_owe.size();  // may_owe's answer, kept
    return (known ? r.may_owe[q] != 0 : may_owe(r, q)) && owed_guess(r.gangs[i]);
  };
  // Ranks as it walks; stops once no queue may be owed, as no job left would be tried (pass 2 then
  // ranks the rest).
  // The first pass may leave unranked the rest of a group no job of which it would try (pass 2
  // then ranks anew); a pass again after pass 2 walks pass 2's ranking.
  bool ranking_cut = false;
  starts_unranked_ = 0;
  auto guarantee_pass = [&](bool may_cut) {
    for (size_t i = 0; i < r.ranked.size() || emit_next(r); ++i) {
      if (shortcuts_ && (!may_owe_any(r) || no_owed_job_left(r, i))) {
        break;
      }
      if (!r.gangs[i].started && owed(i)) {
        try_start(r, r.ranked[i], r.gangs[i].gpus, true);
      } else if (may_cut && shortcuts_) {
        ranking_cut = leave_unowed_group(r, i) || ranking_cut;
      }
    }
  };
  if (!shortcuts_ || may_owe_any(r)) {  // else the guarantee pass would try no job
    guarantee_pass(true);
  }
  if (ranking_cut) {
    forget_ranked(r);  // as of the pass's ranking: its jobs with entries are before `emitted`
    restart_ranking(r);
    // Pass 2's stop (write_tail) and its blocked runs count every start as ranked before them:
    // the stop waits until the pass has ranked them again, a run may not hold one.
    starts_unranked_ = static_cast<uint32_t>(r.plan.starts.size());
  }
  // Evictions inside a queue in this pass can leave later jobs of that queue owed again.
  size_t evicted = r.evicted.size();
  for (size_t i = 0; i < r.ranked.size() || emit_next(r); ++i) {
    if (shortcuts_ && r.evicted.size() == evicted && starts_unranked_ == 0 && rest_cannot_start(r)) {
      write_tail(r, i);  // what the rest of the pass would write
      break;
    }
    const JobId j = r.ranked[i];
    const RankedGang& gang = r.gangs[i];
    if (gang.started) {
      continue;
    }
    const bool is_owed = owed(i);
    const bool blocked = cannot_start(r, gang, is_owed);
    if (blocked) {
      no_fit(r, j, gang.gpus);  // all try_start would do
    }
    if (blocked || !try_start(r, j, gang.gpus, is_owed)) {
      const auto q = static_cast<size_t>(gang.queue);
      r.waiting.resize(std::max(r.waiting.size(), q + 1), 0);
      r.waiting[q] += 1;
    }
    if (blocked && shortcuts_) {
      skip_blocked_run(r, i + 1, evicted);
    }
  }
  // Reclaim for a job ranked later can take a queue down to its guarantee after that queue's
  // smaller jobs were passed over: they are owed now, so guarantees go again while evictions happen.
  if (r.evicted.size() != evicted && !blocked_runs_.empty()) {
    // The passes walk the ranking again: the skipped jobs get their reasons now and are ranked anew.
    for (const BlockedRun& run : blocked_runs_) {
      write_blocked_run_one_by_one(r, run);
    }
    blocked_runs_.clear();
    forget_ranked(r);
    restart_ranking(r);
  }
  for (int again = 0; again < kGuaranteeRepeats && r.evicted.size() != evicted; ++again) {
    evicted = r.evicted.size();
    guarantee_pass(false);
  }
  forget_ranked(r);
  in_passes_ = false;
  write_blocked_runs(r);
  mark_held(r);
  if (!r.plan.preemptions.empty()) {  // victims may restart on GPUs their eviction left free
    const Time again = view.now() + Duration::micros(1);
    r.plan.wake_at = r.plan.wake_at ? std::min(*r.plan.wake_at, again) : again;
  }
  last_held_ = held_;
  full_round_reasons_ = out_.jobs.size();
  keep_running_lists(r);
  keep_arrays(r);
  ranked_kept_.swap(r.ranked);
  gangs_kept_.swap(r.gangs);
  ranked_kept_.clear();
  gangs_kept_.clear();
  take_reasons(r.plan);
  return std::move(r.plan);
}

}  // namespace boreas::policy
