// The controller's one ClusterState, for the daemon's whole life: the type the twin's engine
// drives, kept by events.
//
// Submits, starts, exits, cancels and drains change it in place; it is filled once at recovery
// from the jobs not ended (never from the store's history) and never rebuilt or replaced, so a
// policy object sees one state. A job whose start waits for its victims, or whose dependency is
// not met, is held in it (ClusterState::hold) and released when it may run. A drained node is
// cordoned in the state: its jobs run on, and its free GPUs leave the free counts. ClusterState
// ids are slots, dense from 0: one per job that entered the state since this start, given in id
// order, in a job table that grows in place (ClusterState::add_job). No slot is given twice. Ended
// jobs leave memory, so the state holds a slot (a JobSpec and a JobRecord) per job since the
// daemon started, and nothing older.

#include <algorithm>

#include "server/driver/controller.h"

namespace boreas::server {
namespace {

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
// daemon keeps serving; a restart derives the state from the store's records again.
void Controller::state_error(const Status& s) {
  if (!s.is_ok()) {
    note("state.error", {{"error", s.message()}});
  }
}

// At recovery, once: every job read from the store (already in the table, in id order) as it is
// now; then each drained node cordoned.
Status Controller::fill_state() {
  for (const auto& [id, j] : jobs_) {
    const JobId slot = slot_of(j.id);
    if (is_terminal(j.state)) {
      continue;
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

// The job's slot: the next row of the state's job table, which grows in place.
JobId Controller::add_slot(const LiveJob& job) {
  const JobId slot = state_->add_job(spec_of(job));
  job_slot_[job.id.value()] = slot;
  slot_job_.push_back(job.id.value());
  slot_live_.push_back(nullptr);
  return slot;
}

// A job committed to the table enters the state pending, at its submit time.
void Controller::enter_state(LiveJob& job) {
  const JobId slot = add_slot(job);
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
  state_error(state_->set_preemptible(slot, !job.request.shares_gpu()));  // no longer stopping
  const bool was_running = state_->record(slot).state == JobState::kRunning;
  if (is_terminal(job.state)) {
    set_aside_.erase(job.id.value());  // a held job ends too
    state_error(state_->finish(slot, now, was_running ? job.state : JobState::kCancelled));
  } else if (set_aside_.count(job.id.value()) == 0) {
    if (was_running) {
      state_error(state_->requeue(slot, now));
    }
    state_error(state_->restore(slot, job.ran, job.ran, job.preemptions));  // also one never placed
  }
}

void Controller::state_cancelled(const LiveJob& job) {
  set_aside_.erase(job.id.value());  // a held job is cancelled like any other
  state_error(state_->cancel(slot_of(job.id), config_.clock()));
}

// A stopping job is not preemptible: it is leaving already, and choosing it again would evict it twice.
void Controller::set_stopping(LiveJob& job) {
  job.stopping = true;
  state_error(state_->set_preemptible(slot_of(job.id), false));
}

// A job whose planned start waits for its victims to exit, or whose dependency is not met yet,
// sits the rounds out, held in the state, so the policy cannot evict someone else for it
// meanwhile. True when it was not set aside already.
bool Controller::set_aside(LiveJob& job) {
  if (!set_aside_.insert(job.id.value()).second) {
    return false;
  }
  state_error(state_->hold(slot_of(job.id)));
  return true;
}

void Controller::bring_back_set_aside() {
  for (auto it = set_aside_.begin(); it != set_aside_.end();) {
    LiveJob* j = find(JobId(*it));
    if (j != nullptr && j->state == JobState::kPending && (awaits_victim(*j) || waits_on_dependency(*j))) {
      ++it;
      continue;
    }
    if (j != nullptr) {
      j->waits_for.clear();
      if (j->state == JobState::kPending) {
        state_error(state_->release(slot_of(j->id)));
      }
    }
    it = set_aside_.erase(it);
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
