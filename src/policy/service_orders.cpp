#include "policy/service_orders.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace boreas::policy {

int64_t attained_below_until_us(int64_t last_start_us, Duration work_done, int64_t attained_until, int64_t gpus,
                                double rate) {
  // The work after which the attained service reaches attained_until: ⌈attained_until / gpus⌉.
  const int64_t left = attained_until / gpus + (attained_until % gpus != 0 ? 1 : 0) - work_done.us();
  const int64_t never = Time::never().us();
  if (rate == 1.0) {
    return left >= never - last_start_us ? never : last_start_us + left;
  }
  // llround(ran × rate) ≤ left − 1 while ran × rate ≤ left − 1 (the product and llround round
  // monotonically); ⌊(left − 1) / rate⌋ − 1 keeps ran below the real quotient despite its rounding
  // (at most an ulp, under 1 below 2^52; longer spans are cut there, which only ends a hold early).
  constexpr double kExact = 4503599627370496.0;  // 2^52
  const double span = std::min(std::floor(static_cast<double>(left - 1) / rate) - 1, kExact);
  if (span >= static_cast<double>(never - last_start_us)) {
    return never;
  }
  return span < 0 ? last_start_us : last_start_us + static_cast<int64_t>(span) + 1;
}

ServiceLevels::ServiceLevels(ServiceOptions options) : options_(std::move(options)) {
  for (double t : options_.thresholds_gpu_s) {
    thresholds_us_.push_back(std::llround(t * 1e6));
  }
  std::sort(thresholds_us_.begin(), thresholds_us_.end());
}

uint32_t ServiceLevels::level_for(int64_t attained_us) const {
  // A job drops a queue when its attained service reaches the threshold.
  return static_cast<uint32_t>(std::upper_bound(thresholds_us_.begin(), thresholds_us_.end(), attained_us) -
                               thresholds_us_.begin());
}

bool ServiceLevels::touch(JobId job, const state::ClusterView& view, int64_t attained_gpu_us) {
  const uint32_t i = job.value();
  if (entries_[i] < 0) {
    entries_[i] = view.spec(job).submit.us();
  }
  const auto& rec = view.record(job);
  if (options_.starvation_factor > 0 && rec.state != JobState::kRunning && rec.run_time > Duration::zero() &&
      static_cast<double>((view.now() - rec.pending_since).us()) >=
          options_.starvation_factor * static_cast<double>(rec.run_time.us()) &&
      levels_[i] > 0) {
    offsets_[i] = attained_gpu_us;
    levels_[i] = 0;
    entries_[i] = view.now().us();
    return true;
  }
  const int64_t attained = attained_gpu_us - offsets_[i];
  const uint32_t level = level_for(attained);
  if (level > levels_[i]) {
    // It entered the lower queue when it crossed the threshold: it has run since the last round.
    const double per_us = view.spec(job).gpus * rec.rate;
    const auto over = static_cast<int64_t>((attained - thresholds_us_[level - 1]) / per_us);
    levels_[i] = level;
    entries_[i] = view.now().us() - over;
    expect(job, view);  // when it reaches the next ceiling
    return true;
  }
  return false;
}

void ServiceLevels::resize(size_t jobs) {
  if (levels_.size() < jobs) {
    levels_.resize(jobs, 0);
    entries_.resize(jobs, -1);
    offsets_.resize(jobs, 0);
    latest_.resize(jobs, kNoDue);
  }
}

// When the job's attained service, `attained_us` at `from_us`, reaches its ceiling at its rate.
std::optional<int64_t> ServiceLevels::demotion_after(JobId job, int64_t from_us, int64_t attained_us,
                                                     const state::ClusterView& view) const {
  const int64_t ceiling = ceiling_us(job);
  const uint32_t gpus = view.spec(job).gpus;
  if (ceiling < 0 || gpus == 0) {
    return std::nullopt;
  }
  const double per_us = gpus * view.record(job).rate;
  return from_us + std::max<int64_t>(1, std::llround(std::ceil((ceiling - attained_us) / per_us)));
}

void ServiceLevels::push_due(JobId job, int64_t at_us, const state::ClusterView& view) {
  const state::JobRecord& r = view.record(job);
  const Due d{at_us, job, r.last_start.us(), r.rate, levels_[job.value()]};
  latest_[job.value()] = d;
  due_.push_back(d);
  std::push_heap(due_.begin(), due_.end(), std::greater<>());
}

bool ServiceLevels::current(const Due& d, const state::ClusterView& view) const {
  if (d.segment_us < 0) {  // the empty entry of a job never pushed
    return false;
  }
  const state::JobRecord& r = view.record(d.job);
  return r.state == JobState::kRunning && r.last_start.us() == d.segment_us && r.rate == d.rate &&
         levels_[d.job.value()] == d.level;
}

// Predicts a running job's demotion from the start of its run segment (once per segment).
void ServiceLevels::expect(JobId job, const state::ClusterView& view) {
  const state::JobRecord& r = view.record(job);
  if (r.state != JobState::kRunning || current(latest_[job.value()], view)) {
    return;
  }
  const int64_t banked = attained_gpu_us(r.work_done, view.spec(job).gpus);
  if (auto at = demotion_after(job, r.last_start.us(), banked, view)) {
    push_due(job, *at, view);
  }
}

// Drops stale entries once they outnumber the running jobs (preempted jobs leave theirs behind).
void ServiceLevels::compact(const state::ClusterView& view) {
  if (due_.size() < 4 * view.running().size() + 1024) {
    return;
  }
  std::erase_if(due_, [&](const Due& d) { return !current(d, view); });
  std::make_heap(due_.begin(), due_.end(), std::greater<>());
}

// Learns new run segments (starts, rate changes) from the state's journals (a policy object sees
// one state for its life, from the start of its journals).
void ServiceLevels::follow_runs(const state::ClusterView& view) {
  const state::ClusterState& st = view.state();
  for (; journal_seen_ < st.journal().size(); ++journal_seen_) {
    expect(st.journal()[journal_seen_], view);
  }
  for (; rates_seen_ < st.rate_journal().size(); ++rates_seen_) {
    expect(st.rate_journal()[rates_seen_], view);
  }
  compact(view);
}

// Touching only some jobs is safe: a demotion's entry time is computed from the crossing, not
// from when it is noticed.
bool ServiceLevels::update(const state::ClusterView& view) {
  resize(view.job_count());
  follow_runs(view);
  changed_.clear();
  const int64_t now = view.now().us();
  while (!due_.empty() && due_.front().at_us <= now) {
    std::pop_heap(due_.begin(), due_.end(), std::greater<>());
    const Due d = due_.back();
    due_.pop_back();
    if (!current(d, view)) {
      continue;
    }
    if (touch(d.job, view)) {
      changed_.push_back(d.job);
    } else if (auto at = demotion_after(d.job, now, view.attained_gpu_us(d.job), view)) {
      push_due(d.job, *at, view);  // rounding at a non-unit rate: not across yet, look again
    }
  }
  bool changed = false;
  if (options_.starvation_factor > 0) {  // waiting jobs' levels move only through promotion
    for (JobId j : view.pending()) {
      changed = touch(j, view) || changed;
    }
  }
  return changed;
}

int64_t ServiceLevels::ceiling_us(JobId job) const {
  const uint32_t level = levels_[job.value()];
  return level < thresholds_us_.size() ? thresholds_us_[level] + offsets_[job.value()] : -1;
}

std::optional<Time> ServiceLevels::next_demotion(const state::ClusterView& view, const Plan& plan) {
  std::optional<int64_t> next;
  const int64_t now = view.now().us();
  std::vector<Due> stopping;  // entries of jobs this plan preempts: skipped, kept for later
  while (!due_.empty()) {
    const Due d = due_.front();
    if (current(d, view) &&
        std::find(plan.preemptions.begin(), plan.preemptions.end(), d.job) == plan.preemptions.end()) {
      next = std::max(d.at_us, now + 1);  // one already due is looked at next round
      break;
    }
    std::pop_heap(due_.begin(), due_.end(), std::greater<>());
    if (current(d, view)) {
      stopping.push_back(d);
    }
    due_.pop_back();
  }
  for (const Due& d : stopping) {
    due_.push_back(d);
    std::push_heap(due_.begin(), due_.end(), std::greater<>());
  }
  for (const Start& s : plan.starts) {
    if (auto at = demotion_after(s.job, now, view.attained_gpu_us(s.job), view)) {
      next = next ? std::min(*next, *at) : *at;
    }
  }
  if (auto at = next_promotion(view, plan)) {
    next = next ? std::min(*next, *at) : *at;
  }
  return next ? std::optional<Time>(Time::from_micros(*next)) : std::nullopt;
}

// With starvation promotion on: when the first waiting job (one that has run and sits below the
// top queue) will have waited `starvation_factor` × its run time. Not for jobs this plan starts.
std::optional<int64_t> ServiceLevels::next_promotion(const state::ClusterView& view, const Plan& plan) const {
  if (options_.starvation_factor <= 0) {
    return std::nullopt;
  }
  std::vector<JobId> starting;
  for (const Start& s : plan.starts) {
    starting.push_back(s.job);
  }
  std::sort(starting.begin(), starting.end());
  std::optional<int64_t> next;
  for (JobId j : view.pending()) {
    const state::JobRecord& r = view.record(j);
    if (levels_[j.value()] == 0 || r.run_time <= Duration::zero() ||
        std::binary_search(starting.begin(), starting.end(), j)) {
      continue;
    }
    const auto wait = static_cast<int64_t>(std::ceil(options_.starvation_factor * static_cast<double>(r.run_time.us())));
    const int64_t at = std::max(r.pending_since.us() + wait, view.now().us() + 1);
    next = next ? std::min(*next, at) : at;
  }
  return next;
}

namespace {

class LasOrder final : public PriorityOrder {
 public:
  explicit LasOrder(ServiceOptions options) : levels_(std::move(options)) {}
  void prepare(const state::ClusterView& view, bool /*pending_only*/) override {
    epoch_ += levels_.update(view) ? 1 : 0;
  }
  uint64_t pending_key_epoch() const override { return epoch_; }
  bool running_keys_stable() const override { return true; }
  std::span<const JobId> changed_keys() const override { return levels_.changed(); }
  SortKey key(JobId job, const state::ClusterView& view) override {
    levels_.touch(job, view);
    const bool pending = view.record(job).state != JobState::kRunning;
    return SortKey{static_cast<double>(levels_.level(job)), pending ? 1 : 0, levels_.entry(job)};
  }
  std::optional<Time> wake_at(const state::ClusterView& view, const Plan& plan) override {
    return levels_.next_demotion(view, plan);
  }

 private:
  ServiceLevels levels_;
  uint64_t epoch_ = 0;
};

class GittinsOrder final : public KeyedOrder<GittinsOrder> {
 public:
  explicit GittinsOrder(ServiceOptions options) : levels_(std::move(options)) {}
  void prepare(const state::ClusterView& view, bool /*pending_only*/) override {
    for (; seen_ < view.finished().size(); ++seen_) {
      const JobId j = view.finished()[seen_];
      if (view.record(j).state == JobState::kCompleted) {
        table_.add(attained_gpu_us(view.spec(j).duration, view.spec(j).gpus));  // its whole service
      }
    }
    const bool promoted = levels_.update(view);
    epoch_ += (table_.refresh() || promoted) ? 1 : 0;
    cursors_.resize(std::max(cursors_.size(), view.job_count()));
  }
  uint64_t pending_key_epoch() const override { return epoch_; }
  bool sort_below_grants() const override { return true; }
  // Higher index first; until a job has completed, fall back to LAS order.
  SortKey key(JobId job, const state::ClusterView& view) final {
    return key_for(RankedJob{SortKey{}, job, view.spec(job).gpus}, view);
  }
  // The same, with the gang size from the item (attained_gpu_us() without the spec read).
  SortKey key_for(const RankedJob& r, const state::ClusterView& view) {
    const JobId job = r.job;
    const int64_t attained = attained_gpu_us(view.work_done(job), r.gpus);
    levels_.touch(job, view, attained);
    const bool pending = view.record(job).state != JobState::kRunning;
    if (table_.empty()) {
      return SortKey{static_cast<double>(levels_.level(job)), pending ? 1 : 0, levels_.entry(job)};
    }
    const int64_t ceiling = levels_.ceiling_us(job);
    const int64_t delta = ceiling < 0 ? GittinsTable::kUncapped : ceiling - attained;
    const double index = table_.index(attained, std::max<int64_t>(delta, 1), cursors_[job.value()]);
    return SortKey{-index, pending ? 1 : 0, levels_.entry(job)};
  }
  std::optional<Time> wake_at(const state::ClusterView& view, const Plan& plan) override {
    return levels_.next_demotion(view, plan);
  }
  // The index's floor over the next stretch of attained service (GittinsTable::floor_from), from
  // the read key() just made, while the job runs at its rate below its queue's ceiling (so neither
  // its level nor its cap moves); its key stays at or above (−floor, 0, ·) until then.
  std::optional<RankBound> rank_bound(JobId job, const RankedJob& bar, const state::ClusterView& view) override {
    const state::JobRecord& r = view.record(job);
    const int64_t gpus = view.spec(job).gpus;
    if (table_.empty() || r.state != JobState::kRunning || gpus <= 0) {
      return std::nullopt;
    }
    const auto floor = table_.floor_from(cursors_[job.value()], levels_.ceiling_us(job), -bar.key.primary);
    if (!floor) {
      return std::nullopt;
    }
    // A rate change releases the hold (KeptAbove follows the rate journal): the bound holds at this rate.
    const int64_t until = attained_below_until_us(r.last_start.us(), r.work_done, floor->until, gpus, r.rate);
    return RankBound{SortKey{-floor->index, 0, std::numeric_limits<int64_t>::max()}, Time::from_micros(until)};
  }
  uint64_t bound_epoch() const override { return table_.version(); }

 private:
  ServiceLevels levels_;
  GittinsTable table_;
  std::vector<GittinsTable::Cursor> cursors_;  // by job
  size_t seen_ = 0;
  uint64_t epoch_ = 0;
};

}  // namespace

std::unique_ptr<PriorityOrder> make_las_order(ServiceOptions options) {
  return std::make_unique<LasOrder>(std::move(options));
}
std::unique_ptr<PriorityOrder> make_gittins_order(ServiceOptions options) {
  return std::make_unique<GittinsOrder>(std::move(options));
}

}  // namespace boreas::policy
