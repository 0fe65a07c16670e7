#pragma once
// The `boreas` policy (docs/multitenancy.md): admission by hierarchical quota, priority classes,
// least attained service inside a class, the best placement available, and safe preemption.
//
// One round: rank pending jobs by (class value desc, queue fair share, attained GPU-time, id).
// Pass 1 starts every job that fits inside its queue's guarantee, reclaiming borrowed capacity
// (and preempting lower classes of its own queue) when it does not fit physically. Pass 2 lends
// what is left to the rest, within ceilings and lending limits, preempting only lower classes of
// the same queue. Jobs that are neither started nor victims get a structured pending reason, carried
// by the plan when it changed (plan.h).

#include <map>
#include <memory>
#include <set>
#include <span>
#include <optional>
#include <unordered_map>
#include <vector>

#include "policy/boreas_keys.h"
#include "policy/fair_share.h"
#include "policy/placement.h"
#include "policy/preemption.h"
#include "policy/quota.h"
#include "policy/round_free.h"
#include "policy/scheduler.h"
#include "policy/tenancy.h"

namespace boreas::policy {

class BoreasScheduler final : public Scheduler {
 public:
  BoreasScheduler(TenancyOptions options, std::unique_ptr<Placement> placement);
  ~BoreasScheduler() override;

  std::string_view name() const override { return "boreas"; }
  std::string_view placement_name() const override { return placement_->name(); }
  Plan schedule(const state::ClusterView& view) override;
  // A queue's fair share as of the last round, as ranking uses it; 0 for a queue not seen yet.
  double queue_share(std::string_view queue) const;
  // For tests: what the scheduler keeps across rounds as of the last round (ranking groups, the
  // demands of running jobs) equals the same built from scratch from `view` (the view that round
  // saw); the first difference is the error.
  Status check_kept_state(const state::ClusterView& view) const;
  // For tests: kept ranges of places that place_group found standing for a base below zero modulo
  // 2^32 (the round's starts outnumber the jobs ranked before the group, as write_tail and the
  // blocked runs give it), so it did not visit their jobs; check_kept_state checks every range.
  uint64_t wrapped_places_reused() const { return wrapped_places_reused_; }
  // For tests: brings the kept usage in step with `view` as the next round would, then checks it
  // against usage counted from scratch from `view`'s running jobs (quota books, GPUs held per queue,
  // pinned GPUs, the lowest running preemptible class per queue).
  Status check_usage(const state::ClusterView& view);
  // For tests: whether the round takes its shortcuts (on by default): quiet rounds skip the passes,
  // queues no gang of which is owed skip the owed test, gangs that cannot start skip try_start. Off,
  // every round runs the passes over every job, as the property test's reference.
  void set_shortcuts(bool on) { shortcuts_ = on; }
  uint64_t quiet_rounds_run() const { return quiet_count_; }
  uint64_t blocked_runs_skipped() const { return blocked_runs_skipped_; }

 private:
  struct Round;
  struct JobInfo {
    int32_t queue = -1;  // QuotaBook index; -1 = not seen yet
    int32_t class_value = 0;
    bool class_preemptible = true;
    bool never_fits = false;
    bool borrowed = false;  // started beyond its queue's guarantee
    bool pinned = false;    // borrowed capacity no guarantee covers, and may not be reclaimed
    bool beyond_guarantee = false;  // the gang could never fit inside its queue's guarantee
    Duration idle_wait;             // time held (may not borrow) while in-service GPUs it fits were free
    Time held_at = Time::never();   // the last round found it so; counted at the next round
    int32_t guess_type = -2;        // guess_demand's GPU type: -2 = not looked up, -1 = none
    int32_t group = -1;             // its RankGroup while pending; -1 = none
    int64_t group_attained = 0;     // its key there: attained GPU-µs when it entered
    uint64_t started_round = 0;     // the round that last started it (rounds count from 1)
    uint32_t gpus = 0;              // its gang's size, read with the rest when first seen
    uint32_t rank_pos = 0;          // its position in this round's ranking, while pending
  };
  // Pending jobs of one class and queue in (attained, id) order (boreas_rank.cpp): a sorted array
  // (boreas_keys.h) that may hold stale entries (jobs that left, told by their JobInfo) and the
  // entries added since the last round, merged in when the group is next ranked.
  struct RankGroup {
    int32_t class_value = 0;
    uint32_t queue = 0;
    RankKeys jobs;
    std::vector<RankKey> added;
    std::vector<RankKey> gone;  // the keys of the jobs that left since the last merge
    // Its jobs counted by (guessed GPU type, gang size); -1: no type of the cluster allowed.
    std::map<std::pair<int32_t, uint32_t>, uint32_t> sizes;
    // Places the book holds (boreas_quiet.cpp, place_group): the job at each position p in [from,
    // to) has the shared place base + p, less its queue's lowered_. Sorted, disjoint; carried
    // through tidy_group as positions shift, forgotten when a job of the group gets another entry.
    // `base` is modulo 2^32, as the book keeps a place (its ahead count plus lowered_): a caller's
    // base may be "negative" (the round's starts less the jobs ranked before the group), only
    // base + p is a count.
    struct Placed {
      uint32_t from = 0;
      uint32_t to = 0;
      uint32_t base = 0;
    };
    std::vector<Placed> placed;
    bool forgot_ranked = false;  // a job it ranked this round got another entry (forget_ranked)
  };
  // How a gang beyond its queue's free guarantee starts: not at all, on reclaimable capacity,
  // pinned on unguaranteed GPUs, or covered by guarantee that running jobs of its queue give up.
  enum class Borrow { kNo, kReclaimable, kPinned, kCovered };
  // A reclaim (a guaranteed gang's search among other queues' borrowers) that found no victims:
  // the same search fails again while the round's generation stands, since its candidates, their
  // order and the free GPUs are the same, and a monotone placement reads only these of the gang.
  struct FailedReclaim {
    uint32_t queue = 0;
    uint32_t gpus = 0;
    uint32_t gpu_types = 0;  // the Symbol's index
    bool preemptible = true;
    uint64_t generation = 0;
  };
  static FailedReclaim reclaim_key(const JobSpec& spec, uint32_t queue, uint64_t generation);
  bool reclaim_failed_before(const Round& round, JobId job) const;
  void remember_failed_reclaim(Round& round, JobId job);

  void init(const state::ClusterView& view);
  JobInfo& info(JobId job, const state::ClusterView& view);
  std::optional<PendingReason> never_fits(const JobSpec& spec, uint32_t queue, const state::ClusterView& view);
  bool beyond_guarantee(const JobSpec& spec, uint32_t queue, const state::ClusterView& view);
  // What never_fits and beyond_guarantee read of the books for a queue and GPU type: the queues'
  // configuration and the cluster's capacity alone, so looked up once per (queue, type) and kept
  // (a queue the books add later changes none of another's; the book is made once, in init).
  struct TypeBounds {
    bool known = false;
    uint64_t ceiling = 0;     // book_->max_gpus
    uint64_t own = 0;         // max(book_->max_guaranteed, book_->unguaranteed)
    uint64_t guaranteed = 0;  // book_->max_guaranteed
  };
  const TypeBounds& type_bounds(uint32_t queue, GpuTypeId type);
  std::vector<TypeBounds> type_bounds_;  // by queue × GPU type
  const PriorityClass* find_class(Symbol name_symbol, const state::ClusterView& view) const;
  void account(Round& round);
  // Usage kept across rounds (boreas_usage.cpp): the books, pinned and held GPUs and the running
  // preemptible classes count exactly the running jobs at a round's start, brought in step from
  // the journal and the jobs the last round's plan moved.
  void sync_usage(const state::ClusterView& view);
  void count(JobId job, const Demand& demand);
  void uncount(JobId job);
  const std::vector<JobId>& running_in(Round& round, uint32_t queue);
  void keep_running_lists(Round& round);
  std::vector<std::vector<JobId>> running_kept_;  // Round::running_by_queue between rounds, for its capacity
  void rank(Round& round);
  void sync_groups(const state::ClusterView& view);
  void enter_group(JobId job, const state::ClusterView& view);
  void leave_group(JobId job);
  // The ranking made as the passes ask (boreas_rank.cpp): rank() orders the groups, emit_next()
  // appends the next job to the round's ranking (false when none is left).
  bool emit_next(Round& round);
  void emit(Round& round, uint32_t job);
  // Ranks again from the first job, for a guarantee pass after pass 2 (restart_ranking).
  void restart_ranking(Round& round);
  // The guarantee pass's second stop (boreas_rank.cpp): no job left to it may be owed.
  bool no_owed_job_left(Round& round, size_t at);
  void count_unranked();
  std::vector<uint32_t> unranked_;  // by queue: its jobs this round's ranking has not reached
  bool owed_left_known_ = false;     // no_owed_job_left said no as of these may_owe versions
  uint64_t owed_left_at_ = 0;
  uint64_t owed_left_books_ = 0;
  // Pass 2's blocked runs (boreas_policy.cpp): once a group that is a tie set of its own is reached
  // and none of its jobs left can start (not owed, nothing of its class to preempt, every gang
  // larger than the free GPUs), each of them would get only its no-fit reason, `ahead` the jobs of
  // its queue left waiting before it. The pass skips them; the round's end gives them those reasons:
  // as shared places when the free GPUs stood since (place_group, whose kept ranges make a run that
  // did not move cost nothing), else one by one, as the pass would have.
  struct BlockedRun {
    uint32_t group = 0;
    uint32_t from = 0;   // its first position skipped
    uint32_t ahead = 0;  // that job's count of its queue's jobs left waiting before it
    uint64_t free = 0;   // the round's free GPUs when it was skipped
  };
  bool skip_blocked_run(Round& round, size_t walked, size_t evicted);
  bool group_may_be_owed(const RankGroup& group);
  bool leave_unowed_group(Round& round, size_t at);
  uint32_t group_left_after_last_ranked(const Round& round, size_t walked) const;
  bool holds_unranked_start(const Round& round, uint32_t group, uint32_t from) const;
  uint32_t starts_unranked_ = 0;  // after restart_ranking: the round's starts not ranked again yet
  void write_blocked_runs(Round& round);
  void write_blocked_run_one_by_one(Round& round, const BlockedRun& run);
  std::vector<BlockedRun> blocked_runs_;  // this round's
  uint64_t blocked_runs_skipped_ = 0;      // for tests: runs skipped in all
  uint64_t wrapped_places_reused_ = 0;     // for tests: wrapped_places_reused()
  // Whether no job the pass has not reached can start or preempt (boreas_quiet.cpp): checked by
  // (group, guessed type) like a quiet round, again only once the free GPUs or `widened` moved;
  // write_tail then writes the reasons the rest of the pass would, ranking none of those jobs.
  bool rest_cannot_start(Round& round);
  void write_tail(Round& round, size_t walked);
  // The plan lowers the shared set's places of each queue by the round's starts there (plan.h);
  // returns the starts by queue.
  const std::vector<uint32_t>& lower_shared_by_starts(const Round& round);
  bool may_owe_any(Round& round);
  // Idle waits of held jobs still waiting are counted at a full round's start, as ranking them did.
  void count_held_waits(Round& round);
  void tidy_group(uint32_t group);
  static void merge_added(RankGroup& group);
  // Widens [lo, hi] to the keys it drops.
  void drop_stale(uint32_t group, RankKey& lo, RankKey& hi);
  // Quiet rounds (boreas_quiet.cpp): a round in which no waiting gang fits the free GPUs, none is
  // owed and none may preempt its own queue starts and preempts nothing, and gives every ranked job
  // the no-fit reason its place in its queue's order decides; it skips the passes, and its plan
  // gives the round's free GPUs and only the places (ahead counts) that changed (plan.h).
  bool round_is_quiet(Round& round);
  bool none_may_start(Round& round);
  void run_quiet_round(Round& round);
  void place_quiet(bool after_full, const std::vector<uint8_t>& changed);
  void share_free(uint32_t free, uint32_t largest_block);
  // False when the book held that place already.
  bool place_shared(JobId job, uint32_t queue, uint32_t need, uint32_t ahead);
  // The book holds this place for the job in this span already (place_shared would send nothing).
  bool holds_place(uint32_t job, uint32_t queue, uint32_t ahead) const {
    const SentPlace& sent = sent_place_[job];
    return sent.span == span_ && sent.ahead == ahead + lowered(queue);
  }
  // The group's jobs from position `from` on join the shared set, each `base` + its position ahead;
  // the places its last call left in the book are not visited again.
  void place_group(uint32_t group, uint32_t from, uint32_t base);
  // The waiting jobs of the group's queue in higher classes: ranked before all of the group's.
  uint32_t jobs_in_higher_classes(const RankGroup& group) const;
  // The group's placed ranges after tidy_group removed or inserted entries with keys in [lo, hi],
  // `before` entries before.
  void shift_placed(RankGroup& group, const RankKey& lo, const RankKey& hi, size_t before);
  // A job's entry in the books changed other than by place_group: its group's places are unknown;
  // while the passes run, only those of the jobs the round ranked (forget_ranked).
  void forget_placed(JobId job) {
    const int32_t g = jobs_[job.value()].group;
    if (g >= 0) {
      RankGroup& group = groups_[static_cast<size_t>(g)];
      if (in_passes_) {
        group.forgot_ranked = true;
      } else {
        group.placed.clear();
      }
    }
  }
  // The places of each group that forgot some, before its count of jobs ranked this round.
  void forget_ranked(const Round& round);
  // The group's places before position `at` (its jobs there got other entries).
  static void forget_placed_before(RankGroup& group, uint32_t at) {
    std::erase_if(group.placed, [&](const RankGroup::Placed& k) { return k.to <= at; });
    for (RankGroup::Placed& k : group.placed) {
      k.from = std::max(k.from, at);
    }
  }
  void materialize_quiet(JobId job);
  void end_quiet_span();
  bool in_group(uint32_t group, const RankKey& key) const;
  Status check_rank_groups(const state::ClusterView& view) const;
  // Every kept range of places says what the book holds: the job at each position p in it has
  // the shared place base + p (modulo 2^32) in the current span, as sent_place_ records it.
  Status check_placed_ranges() const;
  bool try_start(Round& round, JobId job, uint32_t gpus, bool guaranteed_pass);
  bool admit_placed(Round& round, JobId job, const Demand& demand, bool guaranteed_pass);
  bool try_preempt(Round& round, JobId job, bool guaranteed_pass);
  bool try_evict(Round& round, JobId job, std::vector<JobId> candidates, bool guaranteed_pass);
  // A reclaim with the shortcuts: its candidates in loss order kept for its queue and generation.
  bool try_reclaim(Round& round, JobId job);
  bool evict_in_order(Round& round, JobId job, const std::vector<JobId>& ordered, bool guaranteed_pass);
  void refuse_at_cap(Round& round, JobId job);
  class ReclaimFilter;  // the victim filter of try_evict (boreas_admit.cpp)
  std::vector<JobId> own_queue_victims(Round& round, JobId job);
  std::vector<JobId> borrower_victims(Round& round, JobId job);
  void commit_start(Round& round, JobId job, std::vector<GpuId> gpus, const Demand& demand);
  void evict(Round& round, JobId victim, int32_t sign);
  void hold(uint32_t queue, const Demand& demand, int32_t sign);
  bool must_not_borrow(JobId job, const state::ClusterView& view) const;
  Borrow borrow_mode(Round& round, JobId job, const Demand& demand);
  std::optional<std::vector<JobId>> uncover_for(Round& round, JobId job, const Demand& demand);
  void uncover(Round& round, JobId job);
  void count_idle_wait(JobId job, Time now);
  void mark_held(Round& round);
  void pin(const Demand& demand, int32_t sign);
  void no_fit(Round& round, JobId job, uint32_t gpus);
  // A running job's demand, kept until the state's journal says the job moved (its GPUs are set
  // when it starts and kept while it runs), so a round does not look up every running GPU's node.
  const Demand& held_demand(JobId job, const state::ClusterView& view);
  void sync_held_demands(const state::ClusterView& view);
  // A pending gang's demand before placement: its GPUs of the first allowed type the cluster has
  // (empty when none), looked up once per job.
  std::span<const TypeCount> guess_demand(JobId job, const state::ClusterView& view, TypeCount& out);
  // This round's reasons (plan.h), moved into its plan by take_reasons.
  void set_reason(JobId job, PendingReason reason);
  // A no-fit reason the books already hold (sent_no_fit_) is not sent again.
  void set_no_fit(JobId job, const NoFitReason& reason) {
    SentPlace& place = sent_place_[job.value()];
    if (place.span != 0 || !(sent_no_fit_[job.value()] == reason)) {
      place = SentPlace{};
      sent_no_fit_[job.value()] = reason;
      out_.jobs.push_back(JobReason{job, reason});
      forget_placed(job);
    }
  }
  void take_reasons(Plan& plan);
  // A ranked job's queue and guessed demand (`guessed` false when no type of the cluster is
  // allowed), read once when ranked so the round's passes walk one array.
  struct RankedGang {
    uint32_t queue = 0;
    uint32_t gpus = 0;
    int32_t class_value = 0;
    bool started = false;  // by this round's plan
    bool guessed = false;
    TypeCount guess;
  };
  // A full round's ranking arrays, kept empty between rounds for the next one (Round::ranked, gangs).
  std::vector<JobId> ranked_kept_;
  std::vector<RankedGang> gangs_kept_;
  // The rest of a round's arrays, kept empty between rounds so that a round allocates none of them
  // anew (take_arrays, keep_arrays: swapped in and out, emptied; the same contents each round;
  // keep_arrays also keeps the scratch's storage, scratch_kept_).
  struct RoundArrays {
    std::vector<int32_t> lowest_preemptible_class;
    std::vector<uint32_t> waiting;
    std::vector<uint8_t> may_owe;
    std::vector<uint32_t> rank_groups;
    std::vector<uint32_t> tie_end;
    std::vector<uint32_t> emitted;
  };
  RoundArrays kept_arrays_;
  void take_arrays(Round& round);
  void keep_arrays(Round& round);
  // Buffers of single steps, kept for their capacity (each emptied or overwritten before use).
  struct GroupOrder {
    int32_t neg_class;
    double share;
    uint32_t group;
    auto operator<=>(const GroupOrder&) const = default;
  };
  std::vector<GroupOrder> group_order_;           // rank
  std::vector<JobId> journal_moved_;              // sync_groups
  std::vector<JobId> usage_check_;                // sync_usage
  std::vector<RankGroup::Placed> placed_kept_;    // shift_placed
  std::vector<uint8_t> quiet_changed_;            // run_quiet_round
  std::vector<uint32_t> started_by_queue_;        // lower_shared_by_starts
  std::vector<uint64_t> free_after_;              // admit_placed
  Demand start_demand_;                           // try_start
  Demand evict_demand_;                           // evict_in_order
  RoundFree round_free_;                          // schedule: its by_type lent to Round::free_by_type
  Scratch::Storage scratch_kept_;                 // Round::scratch's, between rounds
  bool owed_guess(const RankedGang& gang);
  // Whether a waiting gang of the queue may be owed (false: none is, as owed_guess would say),
  // as of the books' current versions; the answer read without this call (`Round::may_owe`) stays
  // a bound while only starts move the books, which never make a gang owed.
  bool may_owe(Round& round, uint32_t queue);
  // Moves whenever either quota book changes (both versions only grow).
  uint64_t books_version() const { return book_->version() + covered_->version(); }
  // A ranked gang that cannot start: nothing it fits is free, it is not owed (no reclaim) and its
  // queue runs no lower preemptible class. Its try_start would write the no-fit reason and fail.
  bool cannot_start(const Round& round, const RankedGang& gang, bool owed) const;

  TenancyOptions options_;
  std::unique_ptr<Placement> placement_;
  bool monotone_placement_ = false;  // placement_is_monotone: reclaim searches may be proved and memoized
  PreemptionGuard guard_;
  TypeFilter types_;
  std::unique_ptr<QuotaBook> book_;
  std::unique_ptr<QuotaBook> covered_;  // usage of the jobs a guarantee covers (not borrowed): ≤ guarantees
  std::unique_ptr<FairShare> fair_;
  std::vector<JobInfo> jobs_;
  Reasons out_;                   // this round's reasons so far
  size_t full_round_reasons_ = 0;  // the last full round's count, reserved by the next
  size_t round_places_ = 0;        // the shared places the last round's plan gave
  uint32_t named_queues_ = 0;     // queue indexes the plans named so far
  uint64_t round_ = 0;
  bool shortcuts_ = true;
  bool in_passes_ = false;  // a full round's passes run: every job that gets an entry was ranked
  uint64_t quiet_round_ = 0;   // the last round, when it was quiet; 0 otherwise
  uint64_t quiet_count_ = 0;   // quiet rounds run
  // What the plans told the drivers' books (plan.h): the shared set's free GPUs and largest free
  // block, each job's entry (sent_place_, sent_no_fit_); per group, the places it last gave
  // (RankGroup::placed).
  uint32_t shared_free_ = 0;
  uint32_t shared_block_ = 0;
  // What a job's entry in the books is: its place in the shared set while `span` is span_ (its
  // ahead count there plus its queue's lowered_, modulo 2^32, as the book keeps it), else
  // sent_no_fit_ (kind kNone: something else). Two arrays, so that the walks over the shared places
  // (place_group) read 8 bytes a job.
  struct SentPlace {
    uint32_t span = 0;
    uint32_t ahead = 0;
  };
  // By queue: what the plans lowered the shared set's ahead counts by in all (plan.h, `lowered`).
  std::vector<uint32_t> lowered_;
  uint32_t lowered(uint32_t queue) const { return queue < lowered_.size() ? lowered_[queue] : 0; }
  std::vector<SentPlace> sent_place_;    // by job
  std::vector<NoFitReason> sent_no_fit_;  // by job; read where its place's span is 0
  uint32_t span_ = 0;
  std::vector<JobId> idle_held_;  // jobs mark_held set held_at for (count_idle_wait clears it)
  std::vector<std::vector<uint32_t>> last_held_;  // GPUs each queue held after the last plan
  // What each job adds to the kept usage (boreas_usage.cpp).
  struct Counted {
    bool in = false;
    bool covered = false;  // in covered_ (not borrowed)
    bool pinned = false;
    Demand demand;
  };
  std::vector<Counted> counted_;
  std::vector<std::vector<uint32_t>> held_;                // queue -> GPU type -> GPUs held
  std::vector<uint64_t> pinned_by_type_;                   // GPUs held by pinned borrowers
  std::vector<std::map<int32_t, uint32_t>> preemptible_;  // queue -> class value -> running jobs
  std::vector<JobId> moved_;                               // jobs counted or uncounted since the last sync
  size_t usage_journal_pos_ = 0;
  bool usage_synced_ = false;
  std::unordered_map<uint32_t, const PriorityClass*> classes_;  // by priority_class symbol
  // Known answers of owed() for a queue and GPU type while neither book changes: owed is monotone
  // in the gang's size, so gangs up to `owed_up_to` GPUs are owed and from `refused_from` are not.
  struct OwedBounds {
    uint32_t owed_up_to = 0;
    uint32_t refused_from = UINT32_MAX;
  };
  std::vector<OwedBounds> owed_known_;  // by queue × GPU type
  size_t catalog_size_ = 0;
  uint64_t owed_book_version_ = UINT64_MAX, owed_covered_version_ = UINT64_MAX;
  std::vector<Demand> held_demand_;     // by job; valid where held_known_ is set
  std::vector<uint8_t> held_known_;
  size_t held_journal_pos_ = 0;
  bool held_synced_ = false;
  // Ranking groups kept from the state's journal (boreas_rank.cpp).
  std::vector<RankGroup> groups_;
  std::map<std::pair<int32_t, uint32_t>, uint32_t> group_index_;  // (class value, queue) -> group
  size_t groups_journal_pos_ = 0;
  bool groups_synced_ = false;
};

std::unique_ptr<Scheduler> make_boreas_scheduler(TenancyOptions options, std::unique_ptr<Placement> placement);

}  // namespace boreas::policy
