#include "server/services/service_manager.h"

#include <algorithm>
#include <cmath>

#include "server/jobs/job_records.h"
#include "server/services/replica_load.h"
#include "server/services/service_records.h"
#include "server/services/service_scale.h"

namespace boreas::server {
namespace {

serving::AutoscalerSpec autoscaler_spec(const ServiceConfig& c) {
  serving::AutoscalerSpec a;
  a.kind = serving::AutoscalerKind::kReactive;
  a.min_replicas = c.min_replicas;
  a.max_replicas = c.max_replicas;
  a.initial_replicas = c.min_replicas;
  a.interval_s = c.interval_s;
  a.target_inflight = c.target_inflight;
  return a;
}

// A replica's env value, or -1 when absent or not a number.
int env_number(const SubmitRequest& r, const char* name) {
  const auto it = r.env.find(name);
  if (it == r.env.end() || it->second.empty() || it->second.size() > 6 ||
      it->second.find_first_not_of("0123456789") != std::string::npos) {
    return -1;
  }
  return std::stoi(it->second);
}

// The poll's HTTP timeout: half the interval, within [50 ms, 1 s].
Duration poll_timeout(const ServiceConfig& c) {
  return Duration::from_seconds(std::clamp(c.interval_s / 2, 0.05, 1.0));
}

std::string service_target(const std::string& name) {
  return "service/" + name;
}

}  // namespace

std::string_view to_string(ReplicaState s) {
  switch (s) {
    case ReplicaState::kPending:
      return "pending";
    case ReplicaState::kStarting:
      return "starting";
    case ReplicaState::kReady:
      return "ready";
  }
  return "unknown";
}

ServiceManager::Service::Service(ServiceConfig c)
    : config(std::move(c)), autoscaler(autoscaler_spec(config)) {}

ServiceManager::ServiceManager(Controller& controller, Store& store, MetricsRegistry& metrics,
                               ServiceManagerOptions options)
    : controller_(controller), store_(store), options_(std::move(options)) {
  replicas_gauge_ =
      &metrics.add("boreas_service_replicas",
                   "Replica jobs of each service by state: pending, starting (cold start), ready.",
                   MetricType::kGauge, {"service", "state"});
  desired_gauge_ = &metrics.add("boreas_service_desired_replicas",
                                "The autoscaler's replica count for each service at its last poll.",
                                MetricType::kGauge, {"service"});
  inflight_gauge_ = &metrics.add("boreas_service_inflight_requests",
                                 "In-flight requests the replicas of each service reported at the last poll.",
                                 MetricType::kGauge, {"service"});
  cold_start_ = &metrics.add("boreas_service_cold_start_seconds",
                             "Seconds from a replica job's start to its first answered load poll.",
                             MetricType::kHistogram, {"service"}, {0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600});
  metrics.on_render([this] { refresh_metrics(); });
}

ServiceManager::~ServiceManager() {
  stop();
}

Status ServiceManager::recover() {
  auto stored = load_services(store_);
  if (!stored.is_ok()) {
    return stored.status();
  }
  std::lock_guard lock(mu_);
  const Time now = options_.clock();
  for (ServiceConfig& c : *stored) {
    const std::string name = c.name;
    Service& s = services_.try_emplace(name, std::move(c)).first->second;
    s.next_poll = now;
  }
  auto active = load_active_jobs(store_);  // the jobs Controller::recover() adopted or requeued
  if (!active.is_ok()) {
    return active.status();
  }
  for (const LiveJob& j : *active) {
    const auto it = j.request.env.find(kServiceEnv);
    if (it == j.request.env.end()) {
      continue;
    }
    const auto svc = services_.find(it->second);
    if (svc == services_.end()) {  // its service was deleted, or never stored (a crash in create)
      orphans_.push_back(j.id.value());
      continue;
    }
    Replica r;
    r.job = j.id.value();
    r.index = env_number(j.request, kReplicaEnv);
    r.port = env_number(j.request, kReplicaPortEnv);
    r.attempts = j.attempts;
    r.measured = j.state == JobState::kRunning;
    r.view = {r.job, r.index, r.port, ReplicaState::kPending, 0, std::nullopt};
    svc->second.replicas.push_back(r);
  }
  for (auto& [name, s] : services_) {
    publish(s);
  }
  return Status::ok();
}

void ServiceManager::start() {
  thread_ = std::thread([this] { loop(); });
}

void ServiceManager::stop() {
  {
    std::lock_guard lock(stop_mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

// Replica jobs whose service is gone, found by recover(): cancelled once the controller runs.
void ServiceManager::cancel_orphans() {
  for (uint32_t id : orphans_) {
    auto done = controller_.cancel(Caller("boreas", "service recovery"), JobId(id));
    if (log_ != nullptr) {
      log_->info("service.orphan_cancelled",
                 {{"job", id}, {"result", done.is_ok() ? "ok" : done.status().message()}});
    }
  }
  orphans_.clear();
}

void ServiceManager::loop() {
  cancel_orphans();
  std::unique_lock stop_lock(stop_mu_);
  while (
      !cv_.wait_for(stop_lock, std::chrono::microseconds(options_.tick.us()), [this] { return stopping_; })) {
    stop_lock.unlock();
    std::lock_guard lock(mu_);
    const Time now = options_.clock();
    for (auto& [name, s] : services_) {
      if (s.next_poll <= now) {
        poll(s, now);
      }
    }
    stop_lock.lock();
  }
}

// One poll: the replicas' jobs and loads, the autoscaler's count, then submits or cancels.
void ServiceManager::poll(Service& s, Time now) {
  s.next_poll = now + Duration::from_seconds(s.config.interval_s);
  double inflight = 0;
  for (Replica& r : s.replicas) {
    refresh_replica(s.config.name, r, now, poll_timeout(s.config), inflight);
  }
  note_failures(s, now);
  std::erase_if(s.replicas, [](const Replica& r) { return r.job == 0; });
  s.inflight = inflight;
  const serving::LoadSignal load{now.us(), static_cast<size_t>(std::ceil(inflight - 1e-9)), 0, 0};
  s.desired = s.autoscaler.desired(load);
  const auto current = static_cast<int32_t>(s.replicas.size());
  const int32_t target = next_replica_count(
      current, s.desired, now.us(), Duration::from_seconds(s.config.scale_down_delay_s).us(), s.low_since_us);
  scale_to(s, target, now);
  publish(s);
}

// Failed replica jobs start the back-off; a replica that answered ends it.
void ServiceManager::note_failures(Service& s, Time now) {
  for (const Replica& r : s.replicas) {
    if (r.view.state == ReplicaState::kReady && r.job != 0) {
      s.failures = 0;
    }
  }
  for (const Replica& r : s.replicas) {
    if (r.job == 0 && !r.failed.empty()) {
      s.failures += 1;
      s.retry_after = now + Duration::micros(replica_backoff_us(s.failures, s.config.interval_s));
      s.last_error = r.failed + "; " + std::to_string(s.failures) + " in a row, the next replica in " +
                     to_string(s.retry_after - now);
    }
  }
}

// Reads the replica's job and, while it runs, its load. A replica whose job ended (failed,
// cancelled by someone, gone) gets job 0: the caller drops it and the next scale_to replaces it.
// A failed read of the job (the store) keeps the replica as it was until the next poll.
void ServiceManager::refresh_replica(const std::string& service, Replica& r, Time now, Duration timeout,
                                     double& inflight) {
  auto job = controller_.job(JobId(r.job));
  if (!job.is_ok() && job.status().code() != ErrorCode::kNotFound) {
    inflight += r.view.inflight;
    return;
  }
  if (!job.is_ok() || is_terminal(job->state)) {
    const bool failed = job.is_ok() && job->state == JobState::kFailed;
    r.failed = failed ? "replica job " + std::to_string(r.job) + " failed: " + job->reason : "";
    r.job = 0;
    return;
  }
  r.view = {r.job, r.index, r.port, ReplicaState::kPending, 0, r.view.cold_start_s};
  if (job->state != JobState::kRunning) {
    return;
  }
  if (job->attempts != r.attempts) {  // a new run (first start, or after a preemption)
    r.attempts = job->attempts;
    r.measured = false;
  }
  r.view.state = ReplicaState::kStarting;
  auto load = fetch_inflight(r.port, timeout);
  if (!load.is_ok()) {
    return;
  }
  r.view.state = ReplicaState::kReady;
  r.view.inflight = *load;
  inflight += *load;
  if (!r.measured) {
    r.measured = true;
    r.view.cold_start_s = static_cast<double>((now - job->start).us()) / 1e6;
    cold_start_->observe({service}, *r.view.cold_start_s);
  }
}

void ServiceManager::scale_to(Service& s, int32_t target, Time now) {
  const auto current = static_cast<int32_t>(s.replicas.size());
  if (target < current) {
    std::vector<uint32_t> ids;
    for (const Replica& r : s.replicas) {
      ids.push_back(r.job);
    }
    for (uint32_t id : newest_jobs(ids, static_cast<size_t>(current - target))) {
      const auto it =
          std::find_if(s.replicas.begin(), s.replicas.end(), [id](const Replica& r) { return r.job == id; });
      cancel_replica(s, *it, "scale down");
      s.replicas.erase(it);
    }
    return;
  }
  if (target == current || now < s.retry_after) {
    return;
  }
  if (s.failures == 0) {  // else the failure stays said until a replica answers
    s.last_error.clear();
  }
  for (int32_t i = current; i < target; ++i) {
    if (Status st = add_replica(s); !st.is_ok()) {
      s.last_error = st.message();
      if (log_ != nullptr) {
        log_->error("service.replica_refused", {{"service", s.config.name}, {"error", st.message()}});
      }
      return;
    }
  }
}

Caller ServiceManager::caller_of(const Service& s) const {
  return Caller(s.config.owner, service_target(s.config.name));
}

// Every replica's port: the stored services' and `s`'s (not yet stored while it is created).
std::set<int> ServiceManager::ports_in_use(const Service& s) const {
  std::set<int> used;
  for (const auto& [name, other] : services_) {
    for (const Replica& r : other.replicas) {
      used.insert(r.port);
    }
  }
  for (const Replica& r : s.replicas) {
    used.insert(r.port);
  }
  return used;
}

// A replica job: the template with the replica's identity in its env, submitted as the owner.
Status ServiceManager::add_replica(Service& s) {
  std::set<int32_t> indexes;
  for (const Replica& r : s.replicas) {
    indexes.insert(r.index);
  }
  const int32_t index = free_index(indexes);
  const int port = pick_port(ports_in_use(s), options_.port_lo, options_.port_hi, port_bindable);
  if (port == 0) {
    return conflict("no free port for a replica in " + std::to_string(options_.port_lo) + "-" +
                    std::to_string(options_.port_hi) + "; delete a service or free a port there");
  }
  SubmitRequest req = s.config.replica;
  if (req.name.empty()) {
    req.name = s.config.name + "-" + std::to_string(index);
  }
  req.env[kServiceEnv] = s.config.name;
  req.env[kReplicaEnv] = std::to_string(index);
  req.env[kReplicaPortEnv] = std::to_string(port);
  auto job = controller_.submit(caller_of(s), std::move(req));
  if (!job.is_ok()) {
    return job.status().with_context("service " + s.config.name + ": replica " + std::to_string(index) +
                                     ": ");
  }
  Replica r;
  r.job = job->id.value();
  r.index = index;
  r.port = port;
  r.view = {r.job, index, port, ReplicaState::kPending, 0, std::nullopt};
  s.replicas.push_back(r);
  if (log_ != nullptr) {
    log_->info("service.replica_added",
               {{"service", s.config.name}, {"job", r.job}, {"index", index}, {"port", port}});
  }
  return Status::ok();
}

void ServiceManager::cancel_replica(const Service& s, const Replica& r, const std::string& why) {
  auto done = controller_.cancel(caller_of(s), JobId(r.job));
  if (log_ != nullptr) {
    log_->info("service.replica_cancelled", {{"service", s.config.name},
                                             {"job", r.job},
                                             {"why", why},
                                             {"result", done.is_ok() ? "ok" : done.status().message()}});
  }
}

Result<ServiceView> ServiceManager::create(const Caller& who, ServiceConfig c) {
  std::lock_guard lock(mu_);
  if (services_.count(c.name) > 0) {
    return conflict("service `" + c.name + "` exists; delete it first (boreas service delete " + c.name +
                    ")");
  }
  const Time now = options_.clock();
  c.owner = who.name;
  c.created_us = now.us();
  Service s(std::move(c));
  for (int32_t i = 0; i < s.config.min_replicas; ++i) {
    if (Status st = add_replica(s); !st.is_ok()) {
      for (const Replica& r : s.replicas) {
        cancel_replica(s, r, "the service was refused");
      }
      return st;
    }
  }
  Status stored = store_.write_sync(
      {{insert_service_row(s.config),
        audit_row(now, who.name, "service.create", service_target(s.config.name), "ok", who.peer)}});
  if (!stored.is_ok()) {
    for (const Replica& r : s.replicas) {
      cancel_replica(s, r, "the service was not stored");
    }
    return stored.with_context("the service was not stored: ");
  }
  s.desired = s.config.min_replicas;
  s.next_poll = now + Duration::from_seconds(s.config.interval_s);
  const std::string name = s.config.name;
  publish(services_.emplace(name, std::move(s)).first->second);
  return get(name);
}

Result<ServiceView> ServiceManager::remove(const Caller& who, const std::string& name) {
  std::lock_guard lock(mu_);
  const auto it = services_.find(name);
  if (it == services_.end()) {
    return not_found("no service `" + name + "`; `boreas service list` shows them");
  }
  Status stored =
      store_.write_sync({{delete_service_row(name), audit_row(options_.clock(), who.name, "service.delete",
                                                              service_target(name), "ok", who.peer)}});
  if (!stored.is_ok()) {
    return stored.with_context("the deletion was not stored: ");
  }
  for (const Replica& r : it->second.replicas) {
    cancel_replica(it->second, r, "service deleted");
  }
  auto view = get(name);
  services_.erase(it);
  std::lock_guard view_lock(view_mu_);
  views_.erase(name);
  return view;
}

void ServiceManager::publish(const Service& s) {
  ServiceView v{s.config, {}, s.desired, s.inflight, s.last_error};
  for (const Replica& r : s.replicas) {
    v.replicas.push_back(r.view);
  }
  std::sort(v.replicas.begin(), v.replicas.end(),
            [](const auto& a, const auto& b) { return a.index < b.index; });
  std::lock_guard lock(view_mu_);
  views_[s.config.name] = std::move(v);
}

std::vector<ServiceView> ServiceManager::list() const {
  std::lock_guard lock(view_mu_);
  std::vector<ServiceView> out;
  for (const auto& [name, v] : views_) {
    out.push_back(v);
  }
  return out;
}

Result<ServiceView> ServiceManager::get(const std::string& name) const {
  std::lock_guard lock(view_mu_);
  const auto it = views_.find(name);
  if (it == views_.end()) {
    return not_found("no service `" + name + "`; `boreas service list` shows them");
  }
  return it->second;
}

void ServiceManager::refresh_metrics() {
  replicas_gauge_->clear();
  desired_gauge_->clear();
  inflight_gauge_->clear();
  for (const ServiceView& v : list()) {
    for (ReplicaState st : {ReplicaState::kPending, ReplicaState::kStarting, ReplicaState::kReady}) {
      const auto n =
          std::count_if(v.replicas.begin(), v.replicas.end(), [st](const auto& r) { return r.state == st; });
      replicas_gauge_->set({v.config.name, std::string(to_string(st))}, static_cast<double>(n));
    }
    desired_gauge_->set({v.config.name}, v.desired);
    inflight_gauge_->set({v.config.name}, v.inflight);
  }
}

}  // namespace boreas::server
