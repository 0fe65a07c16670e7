#include "sim/meter.h"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>

namespace boreas::sim {

namespace {
constexpr uint32_t kNoClass = std::numeric_limits<uint32_t>::max();
constexpr double kJoulesPerKwh = 3.6e6;

double seconds_between(Time from, Time to) {
  return to > from ? (to - from).to_seconds() : 0.0;
}

// Max-min water filling of `capacity` over `order` (claim indexes), weighted or equal; returns
// what is left. `keys` is scratch.
double fill(std::span<Claim> claims, std::span<size_t> order, double capacity, bool weighted,
            std::vector<std::pair<double, size_t>>& keys) {
  keys.clear();
  double total_weight = 0;
  for (size_t i : order) {
    const double w = weighted ? claims[i].weight : 1.0;
    keys.emplace_back(claims[i].demand / w, i);
    total_weight += w;
  }
  std::sort(keys.begin(), keys.end());
  size_t k = 0;
  // The claims met in full come first (ascending demand per weight). While the share is not below
  // the demand, std::min gives the demand: the next capacity is known without waiting for the
  // share's division, which only decides the loop's (predicted) branch. The first claim whose
  // share is below its demand and every claim after it take the min as before.
  for (; k < keys.size(); ++k) {
    const size_t i = keys[k].second;
    const double w = weighted ? claims[i].weight : 1.0;
    const double share = total_weight > 0 ? capacity * w / total_weight : 0;
    if (share < claims[i].demand) {
      break;
    }
    claims[i].entitled = claims[i].demand;
    capacity -= claims[i].entitled;
    total_weight -= w;
  }
  for (; k < keys.size(); ++k) {
    const size_t i = keys[k].second;
    const double w = weighted ? claims[i].weight : 1.0;
    const double share = total_weight > 0 ? capacity * w / total_weight : 0;
    claims[i].entitled = std::min(claims[i].demand, share);
    capacity -= claims[i].entitled;
    total_weight -= w;
  }
  return std::max(0.0, capacity);
}

Status window_error(std::string_view text, std::string_view why) {
  return invalid_argument("--window '" + std::string(text) + "': " + std::string(why) +
                          "; give START:END in seconds since the trace's first submission, e.g. "
                          "86400:604800, or leave a side empty (:604800, 86400:)");
}

Result<std::optional<Duration>> window_side(std::string_view text, std::string_view side) {
  if (side.empty()) {
    return std::optional<Duration>();
  }
  double seconds = 0;
  const auto [end, ec] = std::from_chars(side.data(), side.data() + side.size(), seconds);
  if (ec != std::errc() || end != side.data() + side.size() || !std::isfinite(seconds)) {
    return window_error(text, "'" + std::string(side) + "' is not a number of seconds");
  }
  if (seconds < 0) {
    return window_error(text, "'" + std::string(side) + "' is negative");
  }
  return std::optional<Duration>(Duration::from_seconds(seconds));
}
}  // namespace

Status parse_window(std::string_view text, MeterOptions& out) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return window_error(text, "no ':' between START and END");
  }
  auto start = window_side(text, text.substr(0, colon));
  auto end = window_side(text, text.substr(colon + 1));
  if (!start.is_ok()) {
    return start.status();
  }
  if (!end.is_ok()) {
    return end.status();
  }
  if (*start && *end && **end <= **start) {
    return window_error(text, "END must be after START");
  }
  out.window_start = *start;
  out.window_end = *end;
  return Status::ok();
}

void water_fill(std::span<Claim> claims, double capacity, WaterFillScratch& scratch) {
  double demand = 0;
  for (Claim& c : claims) {
    c.entitled = c.demand;
    demand += c.demand;
  }
  if (demand <= capacity) {
    return;  // every claim is met
  }
  scratch.order.clear();
  for (size_t i = 0; i < claims.size(); ++i) {
    scratch.order.push_back(i);
  }
  const auto unweighted = std::stable_partition(scratch.order.begin(), scratch.order.end(),
                                                [&](size_t i) { return claims[i].weight > 0; });
  const auto split = static_cast<size_t>(unweighted - scratch.order.begin());
  const std::span<size_t> order(scratch.order);
  const double left = fill(claims, order.first(split), capacity, true, scratch.keys);
  fill(claims, order.subspan(split), left, false, scratch.keys);
}

void water_fill(std::span<Claim> claims, double capacity) {
  WaterFillScratch scratch;
  water_fill(claims, capacity, scratch);
}

Meter::Meter(const state::ClusterState& state, MeterOptions options)
    : state_(state),
      options_(std::move(options)),
      job_class_(state.job_count(), kNoClass),
      job_queue_(state.job_count(), 0),
      where_(state.job_count(), Where::kNone),
      work_rate_(state.job_count(), 0.0) {
  std::map<uint32_t, uint32_t> dense;  // queue symbol -> index
  for (size_t j = 0; j < state.job_count(); ++j) {
    const Symbol q = state.spec(JobId(static_cast<uint32_t>(j))).queue;
    const auto [it, added] = dense.emplace(q.index(), static_cast<uint32_t>(queue_names_.size()));
    if (added) {
      queue_names_.push_back(q.empty() ? std::string("default") : std::string(state.symbols().view(q)));
    }
    job_queue_[j] = it->second;
  }
  for (const std::string& name : queue_names_) {
    const auto w = options_.queue_weights.find(name);
    weight_.push_back(options_.queue_weights.empty()      ? 1.0
                      : w != options_.queue_weights.end() ? w->second
                                                          : 0.0);
  }
  held_.assign(queue_names_.size(), 0);
  pending_.assign(queue_names_.size(), 0);
  shortfall_gpu_s_.assign(queue_names_.size(), 0.0);
  entitled_gpu_s_.assign(queue_names_.size(), 0.0);
}

Status Meter::start(Time first_submit, Time last_submit) {
  last_ = first_submit;
  totals_.window_start = first_submit + options_.window_start.value_or(Duration::zero());
  totals_.window_end = options_.window_end ? first_submit + *options_.window_end : last_submit;
  if (!options_.window_start && !options_.window_end && totals_.window_end == totals_.window_start) {
    default_window_empty_ = true;  // every job submitted at once: measure the whole run instead
    return Status::ok();
  }
  if (totals_.window_end <= totals_.window_start) {
    return invalid_argument(fmt::format(
        "--window: the window starts at {} s but ends at {} s (seconds since the first submission; "
        "without an END it ends at the last submission); give START:END with END > START",
        (totals_.window_start - first_submit).to_seconds(),
        (totals_.window_end - first_submit).to_seconds()));
  }
  return Status::ok();
}

void Meter::integrate_window(Time from, Time to) {
  const double w = seconds_between(std::max(from, totals_.window_start), std::min(to, totals_.window_end));
  totals_.window_allocated_gpu_s += allocated_ * w;
  totals_.window_work_gpu_s += work_ * w;
  totals_.window_facility_kwh += facility_w_ * w / kJoulesPerKwh;
}

void Meter::integrate(Time t) {
  const double dt = seconds_between(last_, t);
  if (dt <= 0) {
    return;
  }
  run_allocated_gpu_s_ += allocated_ * dt;
  run_work_gpu_s_ += work_ * dt;
  run_facility_kwh_ += facility_w_ * dt / kJoulesPerKwh;
  totals_.idle_while_waiting_gpu_s += idle_ * dt;
  for (const Share& s : shares_) {
    shortfall_gpu_s_[s.queue] += s.shortfall * dt;
    entitled_gpu_s_[s.queue] += s.entitled * dt;
  }
  integrate_window(last_, t);
  last_ = t;
}

uint32_t Meter::class_of(const JobSpec& spec) {
  uint32_t& c = job_class_[spec.id.value()];
  if (c != kNoClass) {
    return c;
  }
  const auto [it, added] =
      class_by_symbol_.emplace(spec.gpu_types.index(), static_cast<uint32_t>(class_types_.size()));
  if (added) {
    class_types_.push_back(types_.allowed(spec, state::ClusterView(state_, last_)));
    waiting_.emplace_back();
  }
  c = it->second;
  return c;
}

// Moves the job's contribution to where its lifecycle state now puts it.
void Meter::sync_job(JobId job) {
  const uint32_t j = job.value();
  const JobSpec& spec = state_.spec(job);
  const uint32_t q = job_queue_[j];
  const uint32_t c = class_of(spec);
  if (where_[j] == Where::kPending) {
    pending_[q] -= spec.gpus;
    waiting_[c].remove(spec.gpus);
  } else if (where_[j] == Where::kRunning) {
    held_[q] -= spec.gpus;
    work_ -= work_rate_[j];
  }
  const JobState now = state_.record(job).state;
  const bool waits = now == JobState::kPending || now == JobState::kPreempted;  // both are in pending()
  where_[j] = waits ? Where::kPending : now == JobState::kRunning ? Where::kRunning : Where::kNone;
  if (where_[j] == Where::kPending) {
    pending_[q] += spec.gpus;
    waiting_[c].add(spec.gpus);
  } else if (where_[j] == Where::kRunning) {
    held_[q] += spec.gpus;
    work_rate_[j] = state_.record(job).rate * spec.gpus;
    work_ += work_rate_[j];
  }
}

bool Meter::sync_jobs() {
  const auto journal = state_.journal();
  const bool changed = journal_pos_ < journal.size();
  for (; journal_pos_ < journal.size(); ++journal_pos_) {
    sync_job(journal[journal_pos_]);
  }
  return changed;
}

void Meter::sync_rates() {
  const auto journal = state_.rate_journal();
  for (; rate_pos_ < journal.size(); ++rate_pos_) {
    const JobId job = journal[rate_pos_];
    if (where_[job.value()] == Where::kRunning) {
      const double now = state_.record(job).rate * state_.spec(job).gpus;
      work_ += now - work_rate_[job.value()];
      work_rate_[job.value()] = now;
    }
  }
  if (state_.running().empty()) {
    work_ = 0;  // no rounding left over from the adds and subtracts
  }
}

bool Meter::held_by_quota(JobId job, const policy::ReasonBook& reasons) const {
  return policy::is_quota_hold(reasons.kind(job));
}

// Per class of waiting jobs (same accepted GPU types): the free GPUs it accepts, and from the
// buckets the GPUs of its waiting gangs that fit them.
void Meter::bucket_demand(const std::vector<uint64_t>& free_by_type) {
  class_free_.assign(class_types_.size(), 0);
  class_demand_.assign(class_types_.size(), 0);
  for (size_t c = 0; c < class_types_.size(); ++c) {
    for (GpuTypeId t : class_types_[c]) {
      class_free_[c] += t.value() < free_by_type.size() ? free_by_type[t.value()] : 0;
    }
    class_demand_[c] += waiting_[c].gpus_up_to(class_free_[c]);
  }
}

// The same demand without the gangs held by their own quota: the pending jobs in arrival order,
// until each class has as much as can matter (its free GPUs, or all its fitting gangs).
void Meter::unheld_demand(const policy::ReasonBook& reasons) {
  target_.resize(class_demand_.size());
  size_t open = 0;
  for (size_t c = 0; c < class_demand_.size(); ++c) {
    target_[c] = std::min(class_free_[c], class_demand_[c]);
    class_demand_[c] = 0;
    open += target_[c] > 0 ? 1 : 0;
  }
  for (auto it = state_.pending().begin(); it != state_.pending().end() && open > 0; ++it) {
    const uint32_t c = job_class_[it->value()];
    const uint32_t gpus = state_.spec(*it).gpus;
    if (class_demand_[c] < target_[c] && gpus <= class_free_[c] && !held_by_quota(*it, reasons)) {
      class_demand_[c] += gpus;
      open -= class_demand_[c] >= target_[c] ? 1 : 0;
    }
  }
}

// Σ classes min(free GPUs it accepts, its fitting demand), capped by the free GPUs of the types
// that some class with demand accepts.
double Meter::matched_idle(const std::vector<uint64_t>& free_by_type) {
  std::vector<uint8_t>& usable = usable_scratch_;
  usable.assign(free_by_type.size(), 0);
  uint64_t matched = 0;
  for (size_t c = 0; c < class_types_.size(); ++c) {
    if (class_demand_[c] == 0) {
      continue;
    }
    matched += std::min(class_free_[c], class_demand_[c]);
    for (GpuTypeId t : class_types_[c]) {
      usable[t.value()] = 1;
    }
  }
  uint64_t usable_free = 0;
  for (size_t t = 0; t < free_by_type.size(); ++t) {
    usable_free += usable[t] ? free_by_type[t] : 0;
  }
  return static_cast<double>(std::min(usable_free, matched));
}

double Meter::idle_while_waiting(const policy::ReasonBook& reasons) {
  if (state_.pending().empty() || state_.free_gpus() == 0) {
    return 0;
  }
  const state::FreeIndex& index = state_.free_index();
  free_scratch_.assign(index.type_count(), 0);
  for (uint32_t t = 0; t < index.type_count(); ++t) {
    for (uint32_t f = 1; f <= index.max_free(GpuTypeId(t)); ++f) {
      free_scratch_[t] += static_cast<uint64_t>(f) * index.nodes_with(GpuTypeId(t), f).size();
    }
  }
  bucket_demand(free_scratch_);
  const double bound = matched_idle(free_scratch_);
  if (bound == 0 || !options_.quota_holds || !reasons.gave_quota_holds()) {
    return bound;  // with no job held by quota, the walk below finds the buckets' demand again
  }
  unheld_demand(reasons);  // only at moments when some waiting gang would fit
  return matched_idle(free_scratch_);
}

// Entitled share per queue with demand: weighted max-min fair share of the in-service GPUs. The
// shares depend only on each queue's demand (held + pending) and the capacity: a start or a
// preemption moves GPUs between held and pending of one queue, so the fill is redone only when a
// demand or the capacity changed; the shortfalls (held) are updated every time.
void Meter::share_out() {
  const uint64_t capacity = state_.total_gpus() - state_.down_gpus();
  demand_.resize(queue_names_.size());
  bool same = capacity == filled_capacity_;
  for (uint32_t q = 0; q < queue_names_.size(); ++q) {
    const uint64_t demand = held_[q] + pending_[q];
    same = same && demand == demand_[q];
    demand_[q] = demand;
  }
  if (!same) {
    fill_shares(capacity);
  }
  for (size_t i = 0; i < shares_.size(); ++i) {
    shares_[i].entitled = claims_[i].entitled;
    shares_[i].shortfall = std::max(0.0, claims_[i].entitled - static_cast<double>(held_[shares_[i].queue]));
  }
}

void Meter::fill_shares(uint64_t capacity) {
  filled_capacity_ = capacity;
  claims_.clear();
  shares_.clear();
  for (uint32_t q = 0; q < queue_names_.size(); ++q) {
    if (demand_[q] > 0) {
      claims_.push_back(Claim{static_cast<double>(demand_[q]), weight_[q], 0});
      shares_.push_back(Share{q, 0, 0});
    }
  }
  water_fill(claims_, static_cast<double>(capacity), fill_scratch_);
}

bool Meter::follow(Time t, double facility_w) {
  integrate(t);
  const bool jobs_moved = sync_jobs();
  sync_rates();
  allocated_ = state_.total_gpus() - state_.free_gpus() - state_.down_gpus();
  facility_w_ = facility_w;
  return jobs_moved;
}

void Meter::observe_before_more(Time t, double facility_w) {
  moved_before_ = follow(t, facility_w) || moved_before_;
}

void Meter::observe(Time t, double facility_w, const policy::ReasonBook& reasons) {
  const bool jobs_moved = follow(t, facility_w) || moved_before_;
  moved_before_ = false;
  // Waiting jobs, free GPUs and demands only change with a lifecycle move or capacity going out
  // of or back into service; the policy's reasons (quota holds) may change in any round, but the
  // shares depend on the demands and the capacity alone.
  const bool capacity_moved = state_.down_gpus() != down_;
  if (jobs_moved || capacity_moved || options_.quota_holds) {
    down_ = state_.down_gpus();
    idle_ = idle_while_waiting(reasons);
  }
  if (jobs_moved || capacity_moved) {
    share_out();
  }
}

MeterTotals Meter::finish(Time run_end) {
  if (last_.is_never()) {
    return totals_;  // no job was submitted
  }
  integrate(run_end);
  if (default_window_empty_) {
    totals_.window_end = last_;
    totals_.window_allocated_gpu_s = run_allocated_gpu_s_;
    totals_.window_work_gpu_s = run_work_gpu_s_;
    totals_.window_facility_kwh = run_facility_kwh_;
  } else {
    integrate_window(last_, totals_.window_end);  // past the last event nothing changes
  }
  for (uint32_t q = 0; q < queue_names_.size(); ++q) {
    totals_.queue_shortfall_gpu_s[queue_names_[q]] += shortfall_gpu_s_[q];
    totals_.queue_entitled_gpu_s[queue_names_[q]] += entitled_gpu_s_[q];
  }
  return totals_;
}

}  // namespace boreas::sim
