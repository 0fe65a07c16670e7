#include "policy/priority_scheduler.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace boreas::policy {

PriorityScheduler::PriorityScheduler(std::string name, std::unique_ptr<PriorityOrder> order,
                                     std::unique_ptr<Placement> placement,
                                     std::unique_ptr<Admission> admission, uint32_t max_preemptions,
                                     bool sort_all)
    : name_(std::move(name)),
      order_(std::move(order)),
      placement_(std::move(placement)),
      admission_(std::move(admission)),
      max_preemptions_(max_preemptions),
      sort_all_(sort_all) {}

void PriorityScheduler::RankedSet::resize(size_t jobs) {
  if (key_.size() < jobs) {
    key_.resize(jobs);
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
    const auto at = set_.find(Ranked{key_[i], job});
    const uint32_t gpus = at->gpus;
    set_.erase(at);
    if (--by_gpus_[gpus] == 0) {
      by_gpus_.erase(gpus);
    }
    in_[i] = 0;
  }
}

void PriorityScheduler::RankedSet::insert(JobId job, SortKey key, uint32_t gpus) {
  const uint32_t i = job.value();
  key_[i] = key;
  set_.insert(Ranked{key, job, gpus});
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

void PriorityScheduler::FlatRanked::insert(JobId job, SortKey key, uint32_t gpus) {
  key_[job.value()] = key;
  in_[job.value()] = 1;
  added_.push_back(Ranked{key, job, gpus});
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
    running_set_.insert(job, order_->key(job, view), view.spec(job).gpus);
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

// A running job no plan may preempt: not preemptible, or at the preemption cap.
bool PriorityScheduler::kept_running(JobId job, const state::ClusterView& view) const {
  return !view.spec(job).preemptible || (max_preemptions_ > 0 && view.record(job).preemptions >= max_preemptions_);
}

// Grants the waiting `p` if its gang fits in the budget left by higher-ranked jobs.
void PriorityScheduler::consider(const Ranked& p, uint64_t& budget) {
  if (p.gpus <= budget) {
    budget -= p.gpus;
    grant_.push_back(p.job);
  }
}

// Keeps the running `r` if its gang fits in the budget left by higher-ranked jobs, else preempts it.
void PriorityScheduler::consider_running(const Ranked& r, uint64_t& budget, const state::ClusterView& view,
                                         Plan& plan) {
  if (some_kept_ && kept_running(r.job, view)) {
    return;  // its GPUs were taken out of the budget up front
  }
  if (r.gpus <= budget) {
    budget -= r.gpus;
  } else {
    plan.preemptions.push_back(r.job);
  }
}

// The walk over running and pending jobs merged in rank order (Tiresias' semantics), from the
// waiting job `p` on. The budget only shrinks, so once it is below every waiting gang no pending
// job can be granted any more.
void PriorityScheduler::walk(const state::ClusterView& view, std::span<const Ranked> running, PendingIt p,
                             uint64_t budget, Plan& plan) {
  const auto end = pending_.set().end();
  for (const Ranked& r : running) {
    for (; p != end && *p < r && budget >= min_gpus_; ++p) {
      if (admission_->admit(p->job, view)) {
        consider(*p, budget);
      }
    }
    consider_running(r, budget, view, plan);
  }
  for (; p != end && budget >= min_gpus_; ++p) {
    if (admission_->admit(p->job, view)) {
      consider(*p, budget);
    }
  }
}

namespace {

auto runs(const state::ClusterView& view) {
  return [&view](JobId j) { return view.record(j).state == JobState::kRunning; };
}

auto gpus_of(const state::ClusterView& view) {
  return [&view](JobId j) { return view.spec(j).gpus; };
}

// The same as a < b, without a branch on the outcome: a running job's side of a waiting job is
// not predictable in the part of the order left unsorted.
bool ranks_before(const RankedJob& a, const RankedJob& b) {
  const unsigned tertiary = static_cast<unsigned>(a.key.tertiary < b.key.tertiary) |
                            (static_cast<unsigned>(a.key.tertiary == b.key.tertiary) &
                             static_cast<unsigned>(a.job < b.job));
  const unsigned secondary = static_cast<unsigned>(a.key.secondary < b.key.secondary) |
                             (static_cast<unsigned>(a.key.secondary == b.key.secondary) & tertiary);
  return (static_cast<unsigned>(a.key.primary < b.key.primary) |
          (static_cast<unsigned>(a.key.primary == b.key.primary) & secondary)) != 0;
}

}  // namespace

// Moves the running jobs ranked before the waiting job `p` to the front of `running` and the others
// behind them, each in their order; returns how many rank before, adds their GPUs to `before_gpus`,
// every job's to `held` and those of the jobs ranked after `second` (not before `p`) to `after_second`.
// The jobs ranked first last round mostly lead again (the skipped ones always do), so a leading run
// of jobs before `p`, which stay where they are, is passed by a plain loop before the branch-free one.
size_t PriorityScheduler::split_at(const Ranked& p, std::span<Ranked> running, uint64_t& held, uint64_t& before_gpus,
                                   const Ranked& second, uint64_t& after_second) {
  if (below_.size() < running.size()) {
    below_.resize(running.size());
  }
  uint64_t all = 0;
  size_t i = 0;
  for (; i < running.size() && running[i] < p; ++i) {
    all += running[i].gpus;
  }
  size_t before = i;
  size_t below = 0;
  uint64_t ahead = all;
  uint64_t after = 0;
  for (; i < running.size(); ++i) {
    const uint32_t gpus = running[i].gpus;
    const bool up = ranks_before(running[i], p);
    below_[below] = running[i];
    if (before != i) {  // a copy onto itself stalled: its two overlapping halves defeat store forwarding
      running[before] = running[i];
    }
    before += up ? 1 : 0;
    below += up ? 0 : 1;
    all += gpus;
    ahead += up ? gpus : 0;
    after += ranks_before(second, running[i]) ? gpus : 0;
  }
  std::copy_n(below_.begin(), below, running.begin() + static_cast<std::ptrdiff_t>(before));
  held += all;
  before_gpus += ahead;
  after_second += after;
  return before;
}

// The walk without sorting the running jobs ranked above the first waiting job it grants, for
// rounds where no running job is kept. Until a grant every running job ranked above the next
// waiting one is kept whatever their order (the running jobs fit the budget together: checked at
// the first split), and a waiting job not granted takes nothing; so only the running jobs ranked
// below the first grant are sorted — none in a round that grants nothing. False (nothing decided)
// when the running jobs do not fit together. Past a few waiting jobs not granted it sorts the rest
// and walks on as walk() does, so a round costs at most a few passes more than the plain walk.
bool PriorityScheduler::decide_lazily(const state::ClusterView& view, std::span<Ranked> running, uint64_t budget,
                                      Plan& plan) {
  constexpr int kPasses = 8;
  auto p = pending_.set().begin();
  bool granted = false;
  for (int pass = 0; p != pending_.set().end() && pass < kPasses; ++p, ++pass) {
    // The held jobs left out of the items (KeptAbove::kFirst and kSecond) rank before p.
    uint64_t held = pass == 0 ? skipped_.gpus : 0;
    uint64_t before_gpus = held;
    uint64_t after_second = 0;
    size_t before = split_at(*p, running, held, before_gpus, pass == 0 ? second_ : *p, after_second);
    if (pass == 0 && held > budget) {
      return false;  // some running job would not fit even before any grant: the plain walk decides
    }
    if (pass == 0 && squeeze_ > 0) {
      last_second_ = second_;
      last_after_ = after_second;
      if (after_second < squeeze_ && seconds_skipped_ && !skipped_.second.empty()) {
        held = before_gpus = skipped_.gpus - key_seconds(view, running, before, after_second);
        before = split_at(*p, running, held, before_gpus, second_, after_second);
      }
    }
    if (pass == 0) {
      hold_above(view, running.first(before), *p);
    }
    budget -= before_gpus;  // all kept
    running = running.subspan(before);
    if (budget < min_gpus_) {
      return true;  // no waiting job is considered any more; the rest are kept
    }
    const size_t grants = grant_.size();
    if (admission_->admit(p->job, view)) {
      consider(*p, budget);
    }
    granted = grant_.size() > grants;
    if (granted) {
      ++p;
      break;
    }
  }
  if (granted || p != pending_.set().end()) {  // else nothing was granted and the rest are kept
    running_.settle(running);
    walk(view, running, p, budget, plan);
  }
  return true;
}

// Holds the running jobs keyed this round and ranked before the first waiting job `bar` whose
// order bounds their rank below it for a while: the next rounds skip their keys while their bound
// ranks before the first waiting job. A held job keyed this round (its bound does not rank before
// `bar`: a higher bar than the one it was held against) is held again with a bound against this
// bar when one ranks before it, so that the next rounds at this bar skip it too.
void PriorityScheduler::hold_above(const state::ClusterView& view, std::span<const Ranked> before,
                                   const Ranked& bar) {
  const Time now = view.now();
  above_.see(bar);
  for (const Ranked& r : before) {
    if (above_.holds(r.job) && Ranked{above_.bound(r.job), r.job} < bar) {
      continue;  // its bound still serves
    }
    if (auto b = order_->rank_bound(r.job, r < above_.top() ? above_.top() : bar, view);
        b && b->until > now && Ranked{b->bound, r.job} < bar) {
      above_.hold(r.job, b->bound, b->until, r.gpus);
    }
  }
}

// Keys the running jobs of a full round, in last round's order; a lazy round leaves out the ones
// held with a bound before this round's bars (skipped_ takes their GPUs; held jobs whose bound may
// have lapsed are let go first).
std::span<PriorityScheduler::Ranked> PriorityScheduler::rekey_running(const state::ClusterView& view,
                                                                      bool lazy) {
  above_.resize(view.job_count());
  if (lazy) {
    above_.expire(view, order_->bound_epoch());
  } else if (!above_.empty()) {
    above_.clear();
  }
  squeeze_ = 0;
  seconds_skipped_ = false;
  second_ = *pending_.set().begin();  // no second bar: split_at's sum against it goes unread
  skipped_ = {};
  auto rekey = [&](std::span<Ranked> items) { order_->rekey(items, view); };
  if (above_.empty()) {
    return running_.keyed(view.state().journal(), view.job_count(), runs(view), gpus_of(view), rekey, &above_);
  }
  const SkipBars bars = skip_bars(view);
  second_ = bars.bars.second;
  squeeze_ = bars.squeeze;
  // A second bar ranked at or after the last one, whose check failed for want of GPUs after it, is
  // not tried (the GPUs after it can only be fewer, but for starts, stops and drift).
  const bool try_second = squeeze_ > 0 && !(!(second_ < last_second_) && last_after_ < squeeze_);
  seconds_skipped_ = try_second;
  const KeptAbove::SkipBars skip{bars.bars.first, try_second ? second_ : bars.bars.first};
  return running_.keyed_apart(view.state().journal(), view.job_count(), runs(view), gpus_of(view), rekey, above_,
                             skip, skipped_);
}

// The bars of a lazy round. `first`: the first waiting job whose place among the running jobs may
// decide something: the waiting jobs before it fit in the budget together with every running job,
// so whatever the order each of them is granted (when admitted), no running job is preempted
// before it, and a running job ranked anywhere before it is kept. `second`: the waiting job after
// it, when `first` does not fit with them; granting the jobs up to `first` then takes `squeeze`
// GPUs more than are free, and decide_lazily checks whether the running jobs ranked after `second`
// give them up (then every running job before `second` is kept too, whatever the order).
PriorityScheduler::SkipBars PriorityScheduler::skip_bars(const state::ClusterView& view) const {
  constexpr int kLooks = 16;
  const Ranked after_all{SortKey{std::numeric_limits<double>::infinity(), 0, 0}, JobId()};
  const uint64_t budget = view.total_gpus() - view.down_gpus();
  if (above_.running_gpus() > budget) {
    const Ranked& p = *pending_.set().begin();  // the plain walk decides
    return SkipBars{{p, p}, 0};
  }
  uint64_t room = budget - above_.running_gpus();
  int looks = 0;
  for (auto p = pending_.set().begin(); p != pending_.set().end(); ++p) {
    const uint32_t gpus = p->gpus;
    if (gpus > room) {
      const auto next = std::next(p);
      return next == pending_.set().end() ? SkipBars{{*p, *p}, 0} : SkipBars{{*p, *next}, gpus - room};
    }
    if (++looks > kLooks) {
      return SkipBars{{*p, *p}, 0};
    }
    room -= gpus;
  }
  return SkipBars{{after_all, after_all}, 0};  // after every job
}

// The skips against the second bar hold when the running jobs keyed after it hold at least the
// squeeze: then every job before it keeps its GPUs whatever the order, and the walk from it on sees
// the budget it would see in the sorted order. When they hold less (`after_second` GPUs), a lower
// threshold T does as well: the waiting jobs before T are still those before the first bar, so if
// the running jobs ranked after T hold the squeeze, every running job before T keeps its GPUs
// whatever the order and the walk from T on is the sorted one, provided every job after T has its
// key. T runs down the skipped jobs' bounds (skipped_.second, left out of `running`), highest
// first: each one's job is keyed and joins `running` (the span moves), and the skips whose bound
// ranks before T stand (their keys rank before their bounds). At the lowest T every skipped job is
// keyed, the first bar's case. Returns the GPUs of the jobs it keyed.
uint64_t PriorityScheduler::key_seconds(const state::ClusterView& view, std::span<Ranked>& running, size_t before,
                                        uint64_t after_second) {
  // The keyed jobs ranked after the first waiting job and before the second bar, not yet counted
  // after the threshold: a heap, the last ranked on top (a job is counted once the threshold falls
  // below it, and stays counted as it falls further).
  between_.clear();
  for (const Ranked& r : running.subspan(before)) {
    if (r < second_) {
      between_.push_back(r);
    }
  }
  std::make_heap(between_.begin(), between_.end());
  // The skipped jobs, highest bound first: each one keyed joins the round's items.
  const std::span<const Ranked> skipped = skipped_.second;
  uint64_t keyed_gpus = 0;
  uint64_t after = after_second;  // GPUs of the jobs counted after the threshold
  for (const Ranked& threshold : skipped) {
    Ranked keyed{SortKey{}, threshold.job, threshold.gpus};
    order_->rekey(std::span<Ranked>(&keyed, 1), view);
    running = running_.add(keyed);
    keyed_gpus += keyed.gpus;
    between_.push_back(keyed);
    std::push_heap(between_.begin(), between_.end());
    for (; !between_.empty() && threshold < between_.front(); between_.pop_back()) {
      after += between_.front().gpus;
      std::pop_heap(between_.begin(), between_.end());
    }
    if (after >= squeeze_) {
      break;
    }
  }
  return keyed_gpus;
}

void PriorityScheduler::decide(const state::ClusterView& view, Plan& plan) {
  uint64_t budget = view.total_gpus() - view.down_gpus();  // nodes out of service host nothing
  if (some_unpreemptible_ || max_preemptions_ > 0) {  // else no running job is kept
    for (JobId j : view.running()) {
      budget -= kept_running(j, view) ? view.spec(j).gpus : 0;
    }
  }
  some_kept_ = some_unpreemptible_ || max_preemptions_ > 0;
  min_gpus_ = std::max<uint32_t>(1, pending_.min_gpus());
  if (order_->running_keys_stable()) {
    walk(view, running_set_.items(), pending_.set().begin(), budget, plan);
    return;
  }
  // Running keys move with service: every full round re-keys them all (but the ones held above).
  const bool lazy = order_->sort_below_grants() && !sort_all_ && !some_unpreemptible_ &&
                    max_preemptions_ == 0;  // no running job kept
  std::span<Ranked> running = rekey_running(view, lazy);
  if (!lazy || !decide_lazily(view, running, budget, plan)) {
    if (!above_.empty()) {  // the plain walk ranks every running job
      above_.clear();
      running = rekey_running(view, false);
    }
    running_.settle(running);
    walk(view, running, pending_.set().begin(), budget, plan);
  }
}

void PriorityScheduler::place_granted(const state::ClusterView& view, Plan& plan) {
  Scratch scratch(view, std::move(scratch_kept_));  // what the last round's allocated, emptied
  for (JobId j : plan.preemptions) {
    scratch.release(view.record(j).gpus);
  }
  for (JobId j : grant_) {
    if (auto gpus = placement_->place(view.spec(j), scratch)) {
      scratch.claim(*gpus);
      plan.starts.push_back(Start{j, std::move(*gpus)});
    }
  }
  scratch_kept_ = scratch.take_storage();
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
    decide(view, plan);
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
    return key_for(RankedJob{SortKey{}, job, view.spec(job).gpus}, view);
  }
  SortKey key_for(const RankedJob& r, const state::ClusterView& view) const {
    const int64_t left = view.remaining(r.job).us();
    return SortKey{static_cast<double>(by_gpu_ ? left * r.gpus : left), 0, 0};
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
