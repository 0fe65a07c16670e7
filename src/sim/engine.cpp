#include "sim/engine.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace boreas::sim {

namespace {
constexpr uint32_t kNoRun = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kProgressEvery = 4096;
// The run records' growth factor once the first reservation (a run per job) is full: preemptions
// make the count unbounded, and every doubling moved all records into pages never touched before
// (gittins-demo-v100: 713k runs of 100k jobs, three doublings; engine14's page faults). Capacity
// reserved and not written costs address space only.
constexpr size_t kRunsGrowth = 8;
}  // namespace

std::string_view to_string(NeverStarted reason) {
  switch (reason) {
    case NeverStarted::kNo:
      return "";
    case NeverStarted::kExceedsCluster:
      return "exceeds-cluster";
    case NeverStarted::kRunEnded:
      return "unschedulable";
  }
  return "";
}

Engine::Engine(const Cluster& cluster, std::span<const JobSpec> jobs, const SymbolTable& symbols,
               policy::Scheduler& scheduler, EngineOptions options)
    : jobs_(jobs),
      scheduler_(scheduler),
      options_(options),
      state_(cluster, jobs, symbols),
      version_(jobs.size(), 0),
      open_run_(jobs.size(), kNoRun),
      meter_(state_, options.meter) {
  arrivals_.reserve(jobs.size());
  for (const JobSpec& j : jobs) {
    arrivals_.push_back(j.id);
  }
  std::stable_sort(arrivals_.begin(), arrivals_.end(),
                   [&](JobId a, JobId b) { return jobs_[a.value()].submit < jobs_[b.value()].submit; });
  compact_at_ = options_.compact_events_from;
  result_.never_started.assign(jobs.size(), NeverStarted::kNo);
  result_.runs.reserve(jobs.size());  // at least one run per job that starts
  reasons_.size_for(jobs.size());
  if (options_.physics.on.any()) {
    physics_ = std::make_unique<Physics>(state_, options_.physics);
    push_physics_events();
    recovery_.watch(jobs.size());
    faults_ = std::make_unique<Faults>(
        state_, *physics_, options_.seed, [this](Time t, FaultEvent e) { push(t, e); },
        [this](JobId j, Time t, JobState s, Duration redo) { return interrupt(j, t, s, redo); });
    faults_->start();
  }
  for (const Node& n : cluster.nodes) {
    if (n.gpu_type) {
      gpus_by_type_.resize(std::max<size_t>(gpus_by_type_.size(), n.gpu_type->value() + 1), 0);
      gpus_by_type_[n.gpu_type->value()] += n.gpu_count;
    }
  }
}

// With physics the heap also holds thermal and failure events, which never run out: the run ends
// when no job arrives any more and none runs, unless jobs wait while capacity is out of service
// (nothing else can change what the queue waits for).
bool Engine::physics_done() const {
  return physics_ && next_arrival_ == arrivals_.size() && state_.running().empty() && !wake_ &&
         (state_.pending().empty() || state_.down_gpus() == 0);
}

Time Engine::next_time() const {
  Time t = Time::never();
  if (next_arrival_ < arrivals_.size()) {
    t = jobs_[arrivals_[next_arrival_].value()].submit;
  }
  if (!heap_.empty()) {
    t = std::min(t, heap_.top().time);
  }
  if (!stale_finishes_.empty()) {
    t = std::min(t, stale_finishes_.top());
  }
  return t;
}

void Engine::push(Time t, EventPayload payload) {
  heap_.push(Event{t, seq_++, payload});
  if (heap_.size() >= compact_at_) {
    compact_events();
  }
}

// Versions only grow, so a finish stale now is stale when popped: dispatch would only count it.
bool Engine::stale_finish(const Event& e) const {
  const auto* f = std::get_if<FinishEvent>(&e.payload);
  return f != nullptr && f->version != version_[f->job.value()];
}

// Moves the stale finishes out of the heap (their times to stale_finishes_); the rest pop as
// before, since (time, seq) orders them totally. Amortized O(1) per push: the threshold doubles.
void Engine::compact_events() {
  heap_.extract_if([this](const Event& e) { return stale_finish(e); },
                   [this](Event&& e) { stale_finishes_.push(e.time); });
  const size_t twice = heap_.size() > SIZE_MAX / 2 ? SIZE_MAX : 2 * heap_.size();
  compact_at_ = std::max(options_.compact_events_from, twice);
}

// GPUs of the types the job accepts: a gang larger than that can never start.
uint64_t Engine::capacity_for(const JobSpec& job, Time t) {
  uint64_t total = 0;
  for (GpuTypeId type : types_.allowed(job, state::ClusterView(state_, t))) {
    total += type.value() < gpus_by_type_.size() ? gpus_by_type_[type.value()] : 0;
  }
  return total;
}

Status Engine::arrive(JobId job, Time t) {
  BOREAS_RETURN_IF_ERROR(state_.submit(job, t));
  if (jobs_[job.value()].gpus > capacity_for(jobs_[job.value()], t)) {
    result_.never_started[job.value()] = NeverStarted::kExceedsCluster;
    return state_.cancel(job, t);  // it could never run; waiting would block strict FIFO forever
  }
  return Status::ok();
}

Status Engine::complete(FinishEvent e, Time t) {
  if (e.version != version_[e.job.value()] || state_.record(e.job).state != JobState::kRunning) {
    return Status::ok();  // stale: the job was preempted or its rate changed since
  }
  return stop_run(e.job, t, JobState::kCompleted, Duration::zero());
}

// Ends a job's open run (completed, preempted or killed by a failure); physics cools its racks.
Status Engine::stop_run(JobId job, Time t, JobState end_state, Duration overhead) {
  check_recovery(job, t);
  std::vector<GpuId>& gpus = stop_gpus_;  // the record's list is gone once the state stops the run
  if (physics_) {
    gpus.assign(state_.record(job).gpus.begin(), state_.record(job).gpus.end());
    physics_->settle(gpus, t);
  }
  if (end_state == JobState::kCompleted) {
    BOREAS_RETURN_IF_ERROR(state_.finish(job, t, JobState::kCompleted));
  } else if (end_state == JobState::kPreempted) {
    BOREAS_RETURN_IF_ERROR(state_.preempt(job, t, overhead));
  } else {
    BOREAS_RETURN_IF_ERROR(state_.requeue(job, t, overhead));
  }
  ++version_[job.value()];
  RunRecord& run = result_.runs[open_run_[job.value()]];
  run.end = t;
  run.end_state = end_state;
  open_run_[job.value()] = kNoRun;
  if (physics_) {
    physics_->on_stop(job, gpus, t, changed_);
    update_rates(changed_, t);
  }
  return Status::ok();
}

Status Engine::process_batch(Time t) {
  bool acted = false;
  if (physics_) {
    physics_->advance(t);
  }
  while (!heap_.empty() && heap_.top().time == t) {
    const Event e = heap_.top();
    heap_.pop();
    BOREAS_RETURN_IF_ERROR(dispatch(e, acted));
  }
  while (!stale_finishes_.empty() && stale_finishes_.top() == t) {  // what dispatch did with them
    stale_finishes_.pop();
    ++result_.events;
  }
  while (next_arrival_ < arrivals_.size() && jobs_[arrivals_[next_arrival_].value()].submit == t) {
    BOREAS_RETURN_IF_ERROR(arrive(arrivals_[next_arrival_++], t));
    ++result_.events;
    acted = true;
  }
  if (!acted) {
    notify(t, true);
    return Status::ok();
  }
  notify(t, false);  // the round below changes the state again at this instant
  return schedule(t);
}

// One event: wake-ups, finishes and fault events make the instant's round run (`acted`); a rack
// check only changes rates. Stale finishes count as events but change nothing.
Status Engine::dispatch(const Event& e, bool& acted) {
  if (std::holds_alternative<WakeEvent>(e.payload)) {
    ++result_.wakeups;
    wake_.reset();
    acted = true;
    return Status::ok();
  }
  ++result_.events;
  if (const auto* f = std::get_if<FinishEvent>(&e.payload)) {
    if (f->version != version_[f->job.value()]) {
      return Status::ok();
    }
    acted = true;
    return complete(*f, e.time);
  }
  if (const auto* r = std::get_if<RackCheckEvent>(&e.payload)) {
    return on_rack_check(*r, e.time);
  }
  acted = true;
  return faults_->handle(e.time, std::get<FaultEvent>(e.payload));
}

// Preemption = checkpoint then stop: with checkpoints on, the job loses no work but pays the
// write and, on resuming, the restore.
Status Engine::apply_preemption(JobId job, Time t) {
  Duration overhead = options_.preemption_overhead;
  if (physics_ && options_.physics.on.checkpoint) {
    overhead += physics_->checkpoint_before_stop(job);
  }
  return stop_run(job, t, JobState::kPreempted, overhead);
}

// The run record takes the plan's GPU list (the state keeps its own copy).
Status Engine::apply_start(policy::Start& start, Time t) {
  if (physics_) {
    physics_->settle(start.gpus, t);
  }
  BOREAS_RETURN_IF_ERROR(state_.start(start.job, start.gpus, t));
  const uint32_t j = start.job.value();
  ++version_[j];
  open_run_[j] = static_cast<uint32_t>(result_.runs.size());
  if (result_.runs.size() == result_.runs.capacity()) {
    result_.runs.reserve(std::max<size_t>(jobs_.size(), result_.runs.capacity() * kRunsGrowth));
  }
  result_.runs.push_back(RunRecord{start.job, state_.record(start.job).preemptions, t, Time::never(),
                                   JobState::kRunning, std::move(start.gpus)});
  if (physics_) {
    physics_->on_start(start.job, t, changed_);
    BOREAS_RETURN_IF_ERROR(state_.set_rate(start.job, physics_->rate(start.job), t));
  }
  push_finish(start.job, t);
  if (physics_) {
    update_rates(changed_, t);
  }
  return Status::ok();
}

void Engine::push_finish(JobId job, Time t) {
  const Duration left = state_.remaining_at(job, t);
  const double rate = state_.record(job).rate;
  const Duration wall = rate == 1.0 ? left : Duration::micros(std::llround(std::ceil(left.us() / rate)));
  push(t + wall, FinishEvent{job, version_[job.value()]});
}

// Jobs whose GPUs changed clock get a new rate, version and finish event.
void Engine::update_rates(std::vector<JobId>& changed, Time t) {
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  for (JobId j : changed) {
    if (state_.record(j).state != JobState::kRunning) {
      continue;
    }
    const double rate = physics_->rate(j);
    if (rate != state_.record(j).rate) {
      check_recovery(j, t);
    }
    if (rate != state_.record(j).rate && state_.set_rate(j, rate, t).is_ok()) {
      ++version_[j.value()];
      push_finish(j, t);
    }
  }
  changed.clear();
  push_physics_events();
}

void Engine::push_physics_events() {
  for (const RackEvent& e : physics_->events()) {
    push(e.at, RackCheckEvent{e.rack, e.version});
  }
  physics_->clear_events();
}

Status Engine::on_rack_check(RackCheckEvent e, Time t) {
  if (physics_->on_rack_event(RackEvent{t, e.rack, e.version}, changed_)) {
    update_rates(changed_, t);
  }
  return Status::ok();
}

Status Engine::schedule(Time t) {
  ++result_.rounds;
  policy::Plan plan = scheduler_.schedule(state::ClusterView(state_, t));
  reasons_.apply(plan.reasons);
  // The error's context is only written when there is an error (not once per start).
  for (JobId j : plan.preemptions) {
    if (Status s = apply_preemption(j, t); !s.is_ok()) {
      return s.with_context("scheduler '" + std::string(scheduler_.name()) + "' preempted badly: ");
    }
  }
  for (policy::Start& start : plan.starts) {
    if (Status s = apply_start(start, t); !s.is_ok()) {
      return s.with_context("scheduler '" + std::string(scheduler_.name()) + "' started badly: ");
    }
  }
  if (plan.wake_at && *plan.wake_at > t && (!wake_ || *plan.wake_at < *wake_)) {
    wake_ = *plan.wake_at;
    push(*plan.wake_at, WakeEvent{});
  }
  notify(t, true);
  return Status::ok();
}

void Engine::sample_until(Time t) {
  if (options_.sample_interval <= Duration::zero()) {
    return;
  }
  while (next_sample_ < t) {
    result_.samples.push_back(Sample{next_sample_, state_.total_gpus() - state_.free_gpus() - state_.down_gpus(),
                                     static_cast<uint32_t>(state_.running().size()),
                                     static_cast<uint32_t>(state_.pending().size()),
                                     state_.pending_gpu_demand()});
    if (physics_) {
      physics_->sample(next_sample_, result_.zone_samples);
    }
    next_sample_ += options_.sample_interval;
  }
}

// The meter sees every change (what only holds until the instant's last change, it skips); the
// observer only the instant's last (after_last).
void Engine::notify(Time t, bool after_last) {
  const double facility_w = physics_ ? physics_->facility_power_w() : 0.0;
  if (!after_last) {
    meter_.observe_before_more(t, facility_w);
    return;
  }
  meter_.observe(t, facility_w, reasons_);
  if (observer_) {
    observer_(state_, t);
  }
}

Result<SimResult> Engine::run() {
  if (arrivals_.empty()) {
    return finish_result();
  }
  result_.first_submit = jobs_[arrivals_.front().value()].submit;
  next_sample_ = result_.first_submit;
  if (faults_) {
    faults_->set_origin(result_.first_submit);
  }
  BOREAS_RETURN_IF_ERROR(meter_.start(result_.first_submit, jobs_[arrivals_.back().value()].submit));
  for (Time t = next_time(); !t.is_never() && !physics_done(); t = next_time()) {
    sample_until(t);
    BOREAS_RETURN_IF_ERROR(process_batch(t));
    if (progress_ && result_.events % kProgressEvery < 4) {
      progress_(static_cast<double>(state_.finished().size()) / static_cast<double>(jobs_.size()));
    }
  }
  return finish_result();
}

// A failure or reclaim stops the run; the recovery clock starts from the work it had left.
Status Engine::interrupt(JobId job, Time t, JobState end_state, Duration redo) {
  const Duration left = state_.remaining_at(job, t);
  BOREAS_RETURN_IF_ERROR(stop_run(job, t, end_state, redo));
  recovery_.interrupted(job, t, left);
  return Status::ok();
}

void Engine::check_recovery(JobId job, Time t) {
  if (recovery_.recovering(job)) {
    recovery_.check(job, t, state_.remaining_at(job, t), state_.record(job).rate);
  }
}

SimResult Engine::finish_result() {
  result_.last_end = result_.first_submit;
  for (const JobSpec& j : jobs_) {
    const Time end = state_.record(j.id).end;
    if (!end.is_never() && end > result_.last_end) {
      result_.last_end = end;
    }
  }
  sample_until(result_.last_end + Duration::micros(1));
  if (physics_) {
    faults_->finish(result_.last_end);
    result_.physics = physics_->finish(result_.last_end);
  }
  result_.meter = meter_.finish(result_.last_end);
  result_.recovery_s = recovery_.take();
  result_.jobs.reserve(jobs_.size());
  for (const JobSpec& j : jobs_) {
    state::JobRecord r = state_.record(j.id);
    r.gpus.clear();
    r.gpus.shrink_to_fit();
    std::string reason = policy::describe(reasons_.reason(j.id));
    if (!reason.empty()) {
      result_.pending_reasons.resize(jobs_.size());
      result_.pending_reasons[j.id.value()] = std::move(reason);
    }
    if (r.first_start.is_never() && result_.never_started[j.id.value()] == NeverStarted::kNo) {
      result_.never_started[j.id.value()] = NeverStarted::kRunEnded;
    }
    result_.jobs.push_back(std::move(r));
  }
  return std::move(result_);
}

}  // namespace boreas::sim
