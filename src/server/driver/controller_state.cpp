// The controller's one long-lived ClusterState: the type the twin's engine drives, kept by events.
//
// Submits, starts, exits, cancels and drains change it in place. It is rebuilt only from the jobs
// in memory (never from the store's history): when its job table is full, and when a pending job
// is set aside while its victims stop, or comes back. A drained node is cordoned in the state: its
// jobs run on, and its free GPUs leave the free counts. ClusterState ids are slots, dense from 0: one
// per job that entered the state since this start, given in id order. A job
// keeps its slot while it is in memory (a policy's per-job records stay its own) and no slot is
// given twice; a rebuild keeps every slot. Ended jobs leave memory, so the state holds a slot
// (a JobSpec and a JobRecord) per job since the daemon started, and nothing older.

#include <algorithm>

#include "server/driver/controller.h"

namespace boreas::server {
namespace {

constexpr size_t kMinSlots = 256;

std::vector<GpuId> gpus_of(const Cluster& c, const LiveJob& j) {
  std::vector<GpuId> gpus;
  for (const JobNode& p : j.placement) {
    for (uint32_t g : p.gpus) {
      gpus.emplace_back(c.nodes[static_cast<size_t>(p.node)].first_gpu + g);
    }
  }
  return gpus;
}

}  // namespace

JobId Controller::slot_of(JobId id) const {
  const auto it = job_slot_.find(id.value());
  return it == job_slot_.end() ? JobId() : it->second;
}

uint32_t Controller::job_at(GpuId gpu) const {
  JobId slot = state_->gpu_owner(gpu);
  if (!slot.valid() && state_->shares().shared(gpu)) {
    slot = state_->shares().on(gpu).front().job;  // a shared GPU shows its first share's job
  }
  return slot.valid() ? slot_job_[slot.value()] : 0;
}

// A state transition the controller's own records say is legal failed: a bug, logged loudly. The
// daemon keeps serving; the next rebuild (or restart) derives the state from the records again.
void Controller::state_error(const Status& s) {
  if (!s.is_ok()) {
    note("state.error", {{"error", s.message()}});
  }
}

// Every job in memory as it is now, in its slot; then each drained node cordoned.
Status Controller::rebuild_state(size_t capacity) {
  capacity = std::max(capacity, used_slots_ + 1);
  state_.reset();
  specs_.resize(capacity);  // may move: nothing refers to it until the new state
  for (size_t s = used_slots_; s < capacity; ++s) {
    specs_[s] = JobSpec{};
    specs_[s].id = JobId(static_cast<uint32_t>(s));
  }
  slot_job_.resize(capacity, 0);
  slot_live_.resize(capacity, nullptr);
  state_ = std::make_unique<state::ClusterState>(config_.cluster, specs_, symbols_);
  for (const auto& [id, j] : jobs_) {
    const JobId slot = slot_of(j.id);
    if (!slot.valid() || is_terminal(j.state) || set_aside_.count(id) > 0) {
      continue;  // no slot yet: a job entering the state, which makes room first
    }
    BOREAS_RETURN_IF_ERROR(j.request.shares_gpu() ? state_->submit_share(slot, j.submit) : state_->submit(slot, j.submit));
    BOREAS_RETURN_IF_ERROR(state_->restore(slot, j.ran, j.ran, j.preemptions));  // live jobs run at rate 1
    if (j.state == JobState::kRunning && !j.placement.empty() && unplaced_.count(id) == 0) {
      BOREAS_RETURN_IF_ERROR(start_in_state(slot, j));
    }
  }
  for (size_t n = 0; n < drained_.size(); ++n) {
    if (drained_[n]) {
      BOREAS_RETURN_IF_ERROR(state_->cordon(NodeId(static_cast<uint32_t>(n))));
    }
  }
  return Status::ok();
}

// Room for `count` more slots; a full table doubles (amortized O(1)).
void Controller::reserve_slots(size_t count) {
  const size_t need = used_slots_ + count + 1;
  if (need > specs_.size()) {
    state_error(rebuild_state(std::max(kMinSlots, 2 * need)));
  }
}

JobId Controller::add_slot(JobSpec spec) {
  const JobId slot(static_cast<uint32_t>(used_slots_++));
  spec.id = slot;
  specs_[slot.value()] = spec;  // an unused slot: the state has not read it yet
  return slot;
}

// A job committed to the table enters the state pending, at its submit time.
void Controller::enter_state(LiveJob& job) {
  reserve_slots(1);
  const JobId slot = add_slot(spec_of(job));
  job_slot_[job.id.value()] = slot;
  slot_job_[slot.value()] = job.id.value();
  slot_live_[slot.value()] = &job;  // a std::map element: it stays put until the job leaves memory
  state_error(job.request.shares_gpu() ? state_->submit_share(slot, job.submit) : state_->submit(slot, job.submit));
}

// A share job holds its share of its one GPU (share_starts.cpp), any other job its GPUs.
Status Controller::start_in_state(JobId slot, const LiveJob& job) {
  const std::vector<GpuId> gpus = gpus_of(config_.cluster, job);
  if (job.request.shares_gpu() && gpus.size() == 1) {
    return state_->start_share(slot, gpus.front(), job.share_milli, job.share_bytes, job.start);
  }
  return state_->start(slot, gpus, job.start);
}

void Controller::state_started(const LiveJob& job) {
  state_error(start_in_state(slot_of(job.id), job));
}

// After apply_exit updated the job: ended, or back to pending with its service so far (the state
// banks work capped at the spec's duration, which is the time limit or zero, so restore sets it).
// GPUs it frees on a drained node stay out of the free counts: the state keeps that node cordoned.
void Controller::state_left_running(const LiveJob& job) {
  const JobId slot = slot_of(job.id);
  const Time now = config_.clock();
  specs_[slot.value()].preemptible = !job.request.shares_gpu();  // no longer stopping
  const bool was_running = state_->record(slot).state == JobState::kRunning;
  if (set_aside_.count(job.id.value()) > 0) {
    if (is_terminal(job.state)) {
      set_aside_.erase(job.id.value());
    }
  } else if (is_terminal(job.state)) {
    state_error(state_->finish(slot, now, was_running ? job.state : JobState::kCancelled));
  } else {
    if (was_running) {
      state_error(state_->requeue(slot, now));
    }
    state_error(state_->restore(slot, job.ran, job.ran, job.preemptions));  // also one never placed
  }
}

void Controller::state_cancelled(const LiveJob& job) {
  if (set_aside_.erase(job.id.value()) == 0) {
    state_error(state_->cancel(slot_of(job.id), config_.clock()));
  }
}

// A stopping job is not preemptible: it is leaving already, and choosing it again would evict it twice.
void Controller::set_stopping(LiveJob& job) {
  job.stopping = true;
  specs_[slot_of(job.id).value()].preemptible = false;
}

// A job whose planned start waits for its victims to exit sits the rounds out, so the policy
// cannot evict someone else for it meanwhile.
void Controller::set_aside(LiveJob& job) {
  set_aside_.insert(job.id.value());
}

void Controller::bring_back_set_aside() {
  bool changed = false;
  for (auto it = set_aside_.begin(); it != set_aside_.end();) {
    LiveJob* j = find(JobId(*it));
    if (j != nullptr && j->state == JobState::kPending && (awaits_victim(*j) || waits_on_dependency(*j))) {
      ++it;
      continue;
    }
    if (j != nullptr) {
      j->waits_for.clear();
    }
    it = set_aside_.erase(it);
    changed = true;
  }
  if (changed) {
    reserve_slots(0);
    state_error(rebuild_state(specs_.size()));
  }
}

// The operator's drain and resume, in the state: a drained node keeps its jobs and offers no GPUs.
void Controller::state_drained(size_t node, bool drained) {
  const NodeId n(static_cast<uint32_t>(node));
  if (state_->node_cordoned(n) != drained) {
    state_error(drained ? state_->cordon(n) : state_->uncordon(n));
  }
}

std::string Controller::state_digest() {
  return call<std::string>([this] {
    const Status ok = state_->check_invariants();
    std::string out = ok.is_ok() ? "" : "invariants: " + ok.message() + "\n";
    const Time now = config_.clock();
    for (size_t n = 0; n < config_.cluster.nodes.size(); ++n) {
      const NodeId node(static_cast<uint32_t>(n));
      out += "node " + std::to_string(n) + " free " + std::to_string(state_->node_free(node)) +
             (state_->node_cordoned(node) ? " cordoned" : "") + "\n";
    }
    for (const auto& [id, j] : jobs_) {
      const JobId slot = slot_of(j.id);
      if (is_terminal(j.state) || set_aside_.count(id) > 0) {
        continue;
      }
      const state::JobRecord& r = state_->record(slot);
      out += "job " + std::to_string(id) + " " + std::string(to_string(r.state)) + " gpus";
      for (GpuId g : r.gpus) {
        out += " " + std::to_string(g.value());
      }
      out += " work " + std::to_string(state_->work_done_at(slot, now).us()) + " ran " +
             std::to_string(r.run_time.us()) + " preempted " + std::to_string(r.preemptions) + "\n";
    }
    out += "pending";
    for (JobId slot : state_->pending()) {
      out += " " + std::to_string(slot_job_[slot.value()]);
    }
    return out + "\n";
  });
}

}  // namespace boreas::server
