#pragma once
// Services in the live daemon (docs/serving.md, "Services in the live daemon"). A service is a
// replica template and autoscaler bounds; each replica is an ordinary job of the service's owner,
// submitted through the Controller, so the same scheduler places it and the queue's policy may
// preempt for it. A thread polls each service every interval: it reads its replica jobs, GETs
// each running replica's /metrics (server/replica_load.h), asks the twin's serving::Autoscaler for
// the replica count, and submits or cancels replica jobs (server/service_scale.h).
//
// Services are stored (migration 11); replicas are found again after a restart by the variables
// in their jobs' env (BOREAS_SERVICE, BOREAS_REPLICA, BOREAS_REPLICA_PORT), as the controller
// adopts their processes like any job's.

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/driver/controller.h"
#include "server/services/service_config.h"
#include "serving/autoscaler.h"

namespace boreas::server {

struct ServiceManagerOptions {
  int port_lo = 30000;  // replicas listen on 127.0.0.1 ports from this range
  int port_hi = 30999;
  Duration tick = Duration::millis(50);  // how often the thread looks for services due a poll
  std::function<Time()> clock;           // wall clock, handed in
};

// What a replica is doing at the last poll: its job waits (pending, preempted), runs but did not
// answer the load poll (starting: its cold start, or a replica that stopped answering), or
// answered it (ready).
enum class ReplicaState : uint8_t { kPending, kStarting, kReady };
std::string_view to_string(ReplicaState s);

struct ReplicaView {
  uint32_t job = 0;
  int32_t index = 0;
  int port = 0;
  ReplicaState state = ReplicaState::kPending;
  double inflight = 0;                 // at the last poll that answered
  std::optional<double> cold_start_s;  // job start to first answered poll, when measured
};

struct ServiceView {
  ServiceConfig config;
  std::vector<ReplicaView> replicas;  // by index
  int32_t desired = 0;                // the autoscaler's count at the last poll
  double inflight = 0;                // summed over the replicas that answered
  std::string last_error;             // the last poll's failure (a submit refused), empty when none
};

class ServiceManager {
 public:
  ServiceManager(Controller& controller, Store& store, MetricsRegistry& metrics,
                 ServiceManagerOptions options);
  ~ServiceManager();
  ServiceManager(const ServiceManager&) = delete;
  ServiceManager& operator=(const ServiceManager&) = delete;

  // After Controller::recover(), before start(): services from the store, their replica jobs
  // adopted (read from the store: the controller need not run yet); replica jobs of a service
  // that is gone are cancelled once start() runs.
  Status recover();
  void start();
  void stop();
  void set_log(JsonLog* log) { log_ = log; }

  // Submits MIN replicas (the first refusal — unknown queue, GPU type — refuses the service), then
  // stores the service. `who` is the owner; s.replica.run_as is already the owner's account.
  Result<ServiceView> create(const Caller& who, ServiceConfig s);
  // Cancels every replica and forgets the service.
  Result<ServiceView> remove(const Caller& who, const std::string& name);
  std::vector<ServiceView> list() const;  // by name, as of each service's last poll
  Result<ServiceView> get(const std::string& name) const;

 private:
  struct Replica {
    uint32_t job = 0;
    int32_t index = 0;
    int port = 0;
    uint32_t attempts = 0;  // the job's launches when last seen: a new run starts a new cold start
    bool measured = false;  // this run's cold start was observed (or cannot be: adopted running)
    std::string failed;     // set when its job failed: how (the job's reason)
    ReplicaView view;
  };
  struct Service {
    explicit Service(ServiceConfig c);
    ServiceConfig config;
    serving::Autoscaler autoscaler;
    std::vector<Replica> replicas;
    int64_t low_since_us = -1;  // scale-down wait (service_scale.h)
    int32_t desired = 0;
    double inflight = 0;
    std::string last_error;
    Time next_poll;
    int32_t failures = 0;  // replica jobs failed in a row (reset when a replica answers a poll)
    Time retry_after;      // no replica is submitted before then (service_scale.h, back-off)
  };

  void loop();
  void cancel_orphans();
  void poll(Service& s, Time now);
  void refresh_replica(const std::string& service, Replica& r, Time now, Duration timeout, double& inflight);
  void scale_to(Service& s, int32_t target, Time now);
  void note_failures(Service& s, Time now);
  Status add_replica(Service& s);
  void cancel_replica(const Service& s, const Replica& r, const std::string& why);
  std::set<int> ports_in_use(const Service& s) const;
  Caller caller_of(const Service& s) const;
  void publish(const Service& s);
  void refresh_metrics();

  Controller& controller_;
  Store& store_;
  ServiceManagerOptions options_;
  JsonLog* log_ = nullptr;
  mutable std::mutex mu_;  // services_; held through a poll, so create/remove wait for it
  std::map<std::string, Service> services_;
  std::vector<uint32_t> orphans_;  // recover() to start(): replica jobs of services that are gone
  mutable std::mutex view_mu_;     // views_: what the API and /metrics read, never behind a poll
  std::map<std::string, ServiceView> views_;
  MetricFamily* replicas_gauge_;
  MetricFamily* desired_gauge_;
  MetricFamily* inflight_gauge_;
  MetricFamily* cold_start_;
  std::condition_variable cv_;
  std::mutex stop_mu_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace boreas::server
