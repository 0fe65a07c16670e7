#include "server/driver/controller.h"

#include <algorithm>
#include <chrono>

#include "server/jobs/job_records.h"

namespace boreas::server {

Controller::Controller(ControllerConfig config, Store& store, Executor& executor,
                       MetricsRegistry& metrics)
    : config_(std::move(config)), store_(store), executor_(executor) {
  state_ = std::make_unique<state::ClusterState>(config_.cluster, std::span<const JobSpec>(), symbols_);
  drained_.assign(config_.cluster.nodes.size(), false);
  executor_drained_.assign(config_.cluster.nodes.size(), false);
  jobs_gauge_ = &metrics.add("boreas_jobs", "Jobs known to the daemon, by state and queue.",
                             MetricType::kGauge, {"state", "queue"});
  gpus_gauge_ = &metrics.add("boreas_gpus", "GPUs by state (free, busy, drained) and type.",
                             MetricType::kGauge, {"state", "type"});
  queue_gpus_gauge_ = &metrics.add("boreas_queue_gpus_in_use", "GPUs held by running jobs.",
                                   MetricType::kGauge, {"queue", "type"});
  queue_guarantee_gauge_ = &metrics.add("boreas_queue_guarantee_gpus", "GPUs guaranteed to a queue, by GPU type "
                                        "as its quota names it ('*' = any).", MetricType::kGauge, {"queue", "gpu_type"});
  store_errors_ = &metrics.add("boreas_store_errors_total", "Store (SQLite) writes whose commit failed and "
                               "reads that failed, since the daemon started.", MetricType::kCounter, {"op"});
  const std::vector<double> buckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                       0.01,   0.025,   0.05,   0.1,   0.25,   1};
  round_seconds_ = &metrics.add("boreas_schedule_round_seconds", "Duration of a scheduling round.",
                                MetricType::kHistogram, {}, buckets);
  submit_seconds_ = &metrics.add("boreas_submit_seconds",
                                 "Time from receiving a submission to its durable acknowledgement.",
                                 MetricType::kHistogram, {}, buckets);
  executor_waiting_gauge_ = &metrics.add("boreas_executor_waiting_jobs", "Jobs Boreas started and released that "
                                         "the executor's own scheduler (Slurm) still keeps pending, by its reason.",
                                         MetricType::kGauge, {"executor", "reason"});
}

Controller::~Controller() { stop(); }

void Controller::start() {
  thread_ = std::thread([this] { loop(); });
  std::lock_guard lock(mu_);
  ready_ = true;
}

void Controller::stop() {
  {
    std::lock_guard lock(mu_);
    if (!thread_.joinable()) {
      return;
    }
    stopping_ = true;
    ready_ = false;
  }
  cv_.notify_all();
  thread_.join();
}

bool Controller::ready() const {
  std::lock_guard lock(mu_);
  return ready_;
}

void Controller::post(std::function<void()> task) {
  {
    std::lock_guard lock(mu_);
    tasks_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void Controller::loop() {
  for (;;) {
    std::deque<std::function<void()>> batch;
    {
      std::unique_lock lock(mu_);
      cv_.wait_for(lock, std::chrono::microseconds(config_.poll_interval.us()),
                   [this] { return stopping_ || !tasks_.empty(); });
      if (stopping_) {
        return;
      }
      batch.swap(tasks_);
    }
    for (auto& task : batch) {
      task();
    }
    tick();
  }
}

void Controller::tick() {
  for (const JobExit& e : executor_.poll(config_.clock())) {
    apply_exit(e);
  }
  apply_starts();
  apply_waits();
  if (wake_ && config_.clock() >= *wake_) {
    wake_.reset();
    dirty_ = true;
  }
  // At most one round per poll interval: a stream of submits marks the state dirty after every
  // batch of tasks, and a round costs O(pending jobs), so a round per batch made each submit's
  // cost grow with the queue (297 submits/s with 17,000 pending, docs/PERFORMANCE.md).
  const auto now = std::chrono::steady_clock::now();
  if (dirty_ && now >= next_round_) {
    timed_round();
    next_round_ = now + std::chrono::microseconds(config_.poll_interval.us());
  }
  drop_retired();
  prune_history(config_.clock());
}

Duration Controller::timed_round() {
  const auto t0 = std::chrono::steady_clock::now();
  schedule();
  const auto took = std::chrono::steady_clock::now() - t0;
  round_seconds_->observe({}, std::chrono::duration<double>(took).count());
  dirty_ = false;
  return Duration::micros(std::chrono::duration_cast<std::chrono::microseconds>(took).count());
}

Duration Controller::run_round() {
  return call<Duration>([this] { return timed_round(); });
}

Result<LiveJob> Controller::submit(const Caller& who, SubmitRequest req) {
  auto r = submit_once(who, std::move(req), "");
  return r.is_ok() ? Result<LiveJob>(std::move(r->job)) : Result<LiveJob>(r.status());
}

// The row is written while the job waits outside the table; the job joins it (and can be
// scheduled) only once the commit succeeded. A failed commit leaves a gap in the ids, nothing else.
Result<Submitted> Controller::submit_once(const Caller& who, SubmitRequest req, const std::string& key) {
  const auto t0 = std::chrono::steady_clock::now();
  Pending<Submitted> p = call<Pending<Submitted>>(
      [this, who, key, req = std::move(req)]() mutable { return do_submit(who, std::move(req), key); });
  if (p.durable) {
    const Status stored = p.durable->get();
    // Not waited for: the controller runs its tasks in order, so any request this client makes
    // after the answer finds the job settled, and the answer does not wait behind a round.
    post([this, id = p.value->job.id, ok = stored.is_ok()] { settle_submit(id, ok); });
    if (!stored.is_ok()) {
      return stored.with_context("the job was not stored and will not run: ");
    }
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
  submit_seconds_->observe({}, took.count());
  return std::move(p.value);
}

void Controller::reconfigure(std::optional<QueueTree> queues, std::shared_ptr<policy::Scheduler> scheduler) {
  call<bool>([&] {
    config_.queues = std::move(queues);
    config_.scheduler = std::move(scheduler);
    reasons_.clear();  // the old policy's reasons: the new one gives its own
    dirty_ = true;
    return true;
  });
}

Result<LiveJob> Controller::cancel(const Caller& who, JobId id) {
  return commit(call<Pending<LiveJob>>([&] { return do_cancel(who, id); }));
}

Result<LiveJob> Controller::checkpoint(const Caller& who, JobId id) {
  return commit(call<Pending<LiveJob>>([&] { return do_checkpoint(who, id); }));
}

Status Controller::set_drained(const Caller& who, const std::string& node, bool drained, DrainOrigin origin) {
  auto r = commit(call<Pending<bool>>([&] { return do_drain(who, node, drained, origin); }));
  return r.is_ok() ? Status::ok() : r.status();
}

std::vector<LiveJob> Controller::jobs() {
  return call<std::vector<LiveJob>>([&] {
    std::vector<LiveJob> out;
    out.reserve(jobs_.size());
    for (const auto& [id, j] : jobs_) {
      out.push_back(j);
    }
    return out;
  });
}

std::string Controller::node_name(int32_t node) const {
  return node >= 0 && static_cast<size_t>(node) < config_.cluster.nodes.size()
             ? config_.cluster.nodes[static_cast<size_t>(node)].name
             : std::string();
}

std::vector<std::string> Controller::node_names(const LiveJob& job) const {
  std::vector<std::string> out;
  for (const JobNode& p : job.placement) {
    out.push_back(node_name(p.node));
  }
  return out;
}

nlohmann::json Controller::placement_json(const LiveJob& job) const {
  nlohmann::json out = nlohmann::json::array();
  for (const JobNode& p : job.placement) {
    out.push_back({{"node", node_name(p.node)}, {"gpu_indexes", p.gpus}});
  }
  return out;
}

void Controller::note(std::string_view event, const nlohmann::json& fields) {
  if (log_ != nullptr) {
    log_->info(event, fields);
  }
}

// The executor's exit record is the source of truth, so losing this write in a crash is repaired
// by reconcile() at the next start.
std::future<Status> Controller::write_async(std::vector<SqlStatement> rows) {
  return store_.write({std::move(rows)});
}

LiveJob* Controller::find(JobId id) {
  const auto it = jobs_.find(id.value());
  return it == jobs_.end() ? nullptr : &it->second;
}

}  // namespace boreas::server
