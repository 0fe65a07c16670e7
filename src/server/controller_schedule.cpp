// The controller's scheduling round, launches, restart recovery and state views.
//
// Interim placement: until policy::Scheduler lands on main, a round starts pending jobs in
// (priority, submission) order on the first node with enough free GPUs of the wanted type.

#include <algorithm>
#include <map>

#include "server/controller.h"
#include "server/job_records.h"

namespace boreas::server {

void Controller::hold_gpus(const LiveJob& job, bool busy) {
  if (job.node < 0) {
    return;
  }
  auto& gpus = gpu_busy_[static_cast<size_t>(job.node)];
  for (uint32_t g : job.gpu_indexes) {
    if (g < gpus.size()) {
      gpus[g] = busy;
    }
  }
}

std::optional<std::vector<uint32_t>> Controller::place(const LiveJob& job, int32_t& node,
                                                       std::string& why) {
  const Cluster& c = config_.cluster;
  const auto type = job.request.gpu_type.empty() ? std::nullopt : c.catalog.find(job.request.gpu_type);
  uint32_t most_free = 0;
  for (size_t n = 0; n < c.nodes.size(); ++n) {
    if (drained_[n] || (type && c.nodes[n].gpu_type != type)) {
      continue;
    }
    std::vector<uint32_t> free;
    for (uint32_t g = 0; g < gpu_busy_[n].size() && free.size() < job.request.gpus; ++g) {
      if (!gpu_busy_[n][g]) {
        free.push_back(g);
      }
    }
    if (free.size() == job.request.gpus) {
      node = static_cast<int32_t>(n);
      return free;
    }
    most_free = std::max(most_free, static_cast<uint32_t>(free.size()));
  }
  why = "no fit: needs " + std::to_string(job.request.gpus) + " GPUs on one undrained node" +
        (job.request.gpu_type.empty() ? "" : " of type " + job.request.gpu_type) +
        "; the most free now is " + std::to_string(most_free);
  return std::nullopt;
}

void Controller::schedule() {
  std::vector<LiveJob*> order;
  for (LiveJob& j : jobs_) {
    if (j.state == JobState::kPending) {
      order.push_back(&j);
    }
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const LiveJob* a, const LiveJob* b) { return a->priority > b->priority; });
  std::vector<LiveJob*> starting;
  for (LiveJob* j : order) {
    int32_t node = -1;
    std::string why;
    if (auto gpus = place(*j, node, why)) {
      j->node = node;
      j->gpu_indexes = std::move(*gpus);
      hold_gpus(*j, true);
      starting.push_back(j);
    } else {
      j->reason = why;
    }
  }
  launch_all(starting);
}

LaunchRequest Controller::launch_request(const LiveJob& job) const {
  LaunchRequest r;
  r.job = job.id;
  r.argv = job.request.command;
  for (const auto& [k, v] : job.request.env) {
    r.env.push_back(k + "=" + v);
  }
  r.cwd = job.request.cwd;
  r.gpu_indexes = job.gpu_indexes;
  r.time_limit = job.request.time_limit;
  r.started = job.start;
  return r;
}

// Launches held, records every identity in one durable write, then lets them run: a crash
// between the two leaves held processes that exit unrun, so no job ever runs twice.
void Controller::launch_all(std::vector<LiveJob*>& starting) {
  const Time now = config_.clock();
  std::vector<SqlStatement> rows;
  std::vector<LiveJob*> held;
  for (LiveJob* j : starting) {
    j->start = now;
    auto id = executor_.launch(launch_request(*j));
    if (id.is_ok()) {
      j->state = JobState::kRunning;
      j->process = *id;
      j->attempts += 1;
      j->reason = "running";
      held.push_back(j);
    } else {
      hold_gpus(*j, false);
      j->state = JobState::kFailed;
      j->end = now;
      j->node = -1;
      j->gpu_indexes.clear();
      j->reason = "could not start: " + id.status().message();
    }
    rows.push_back(update_job_row(*j, now));
  }
  if (rows.empty()) {
    return;
  }
  const bool durable = store_.write_sync({std::move(rows)}).is_ok();
  for (LiveJob* j : held) {
    if (durable) {
      (void)executor_.release(j->id);
      continue;
    }
    (void)executor_.abort(j->id);
    hold_gpus(*j, false);
    j->state = JobState::kPending;
    j->node = -1;
    j->gpu_indexes.clear();
    j->reason = "the store refused the launch record; will retry";
  }
}

void Controller::reconcile(LiveJob& job) {
  const AdoptOutcome o = executor_.adopt(launch_request(job), job.process);
  if (o.alive) {
    hold_gpus(job, true);
    return;
  }
  apply_exit(o.exit ? *o.exit : JobExit{job.id, ExitKind::kLost, -1});
}

Status Controller::load_drained() {
  auto rows = store_.query({"SELECT name FROM node_state WHERE drained = 1", {}});
  if (!rows.is_ok()) {
    return rows.status();
  }
  for (const SqlRow& r : *rows) {
    const std::string name = as_text(r[0]);
    for (size_t n = 0; n < config_.cluster.nodes.size(); ++n) {
      drained_[n] = drained_[n] || config_.cluster.nodes[n].name == name;
    }
  }
  return Status::ok();
}

Status Controller::recover() {
  auto loaded = load_jobs(store_);
  if (!loaded.is_ok()) {
    return loaded.status();
  }
  jobs_ = std::move(*loaded);
  for (size_t i = 0; i < jobs_.size(); ++i) {
    if (jobs_[i].id.value() != i + 1) {
      return internal_error("store: job ids are not dense (expected " + std::to_string(i + 1) +
                            ", found " + std::to_string(jobs_[i].id.value()) + ")");
    }
  }
  for (LiveJob& j : jobs_) {
    if (j.state == JobState::kRunning) {
      reconcile(j);
    }
  }
  dirty_ = true;
  return load_drained();
}

std::vector<QueueView> Controller::queues() {
  return call<std::vector<QueueView>>([&] {
    std::map<std::string, QueueView> by_name;
    if (config_.queues) {
      for (const QueueSpec& q : config_.queues->queues) {
        by_name[q.name].name = q.name;
      }
    }
    for (const LiveJob& j : jobs_) {
      QueueView& v = by_name[j.request.queue];
      v.name = j.request.queue;
      v.pending += j.state == JobState::kPending ? 1 : 0;
      v.running += j.state == JobState::kRunning ? 1 : 0;
      v.gpus_in_use += j.state == JobState::kRunning ? j.request.gpus : 0;
    }
    std::vector<QueueView> out;
    for (auto& [name, v] : by_name) {
      out.push_back(v);
    }
    return out;
  });
}

std::vector<NodeView> Controller::nodes() {
  return call<std::vector<NodeView>>([&] {
    std::vector<NodeView> out;
    const Cluster& c = config_.cluster;
    for (size_t n = 0; n < c.nodes.size(); ++n) {
      const Node& node = c.nodes[n];
      NodeView v{node.name, node.gpu_type ? c.catalog.at(*node.gpu_type).name : "", node.gpu_count,
                 0, drained_[n]};
      v.free_gpus = static_cast<uint32_t>(std::count(gpu_busy_[n].begin(), gpu_busy_[n].end(), false));
      out.push_back(v);
    }
    return out;
  });
}

void Controller::refresh_metrics() {
  call<bool>([&] {
    jobs_gauge_->clear();
    gpus_gauge_->clear();
    queue_gpus_gauge_->clear();
    const Cluster& c = config_.cluster;
    for (const LiveJob& j : jobs_) {
      jobs_gauge_->add({std::string(to_string(j.state)), j.request.queue});
      if (j.state == JobState::kRunning && j.node >= 0) {
        const Node& n = c.nodes[static_cast<size_t>(j.node)];
        const std::string type = n.gpu_type ? c.catalog.at(*n.gpu_type).name : "none";
        queue_gpus_gauge_->add({j.request.queue, type}, static_cast<double>(j.gpu_indexes.size()));
      }
    }
    for (size_t n = 0; n < c.nodes.size(); ++n) {
      const Node& node = c.nodes[n];
      const std::string type = node.gpu_type ? c.catalog.at(*node.gpu_type).name : "none";
      for (bool busy : gpu_busy_[n]) {
        gpus_gauge_->add({drained_[n] ? "drained" : busy ? "busy" : "free", type});
      }
    }
    return true;
  });
}

}  // namespace boreas::server
