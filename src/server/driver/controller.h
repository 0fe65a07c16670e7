#pragma once
// The controller owns the live cluster state on one thread (ARCHITECTURE §6). HTTP threads hand
// it commands through call() and wait for the durable result outside the thread, so the store's
// group commit can batch many requests.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

#include "core/queue.h"
#include "core/symbol.h"
#include "core/topology.h"
#include "server/exec/executor.h"
#include "server/jobs/job_records.h"
#include "server/telemetry/json_log.h"
#include "server/jobs/live_job.h"
#include "server/telemetry/metrics.h"
#include "server/store/store.h"
#include "policy/reason_book.h"
#include "policy/scheduler.h"
#include "state/cluster_state.h"

namespace boreas::server {

struct ControllerConfig {
  Cluster cluster;
  // The same scheduler objects the simulator uses (policy::PolicyRegistry), never a copy.
  std::shared_ptr<policy::Scheduler> scheduler;
  std::optional<QueueTree> queues;  // nullopt = any queue name is accepted
  Duration poll_interval = Duration::millis(20);
  std::function<Time()> clock;      // wall clock, handed in
};

// Ended jobs that ended longer than `retain` ago leave the store, and their directories under
// `jobs_dir` are removed (serve --retain-days); zero keeps them for ever.
struct Retention {
  Duration retain;
  std::string jobs_dir;
};

struct JobPage {
  std::vector<LiveJob> jobs;
  bool more = false;  // a full page: ask again with after = the last id
};

struct QueueView {
  std::string name;
  uint32_t pending = 0;
  uint32_t running = 0;
  uint32_t gpus_in_use = 0;
  uint32_t guaranteed_gpus = 0;                // its quotas' guarantees, over all GPU types
  std::optional<uint32_t> borrow_limit_gpus;  // GPUs beyond them it may borrow; none = unlimited
};

struct NodeView {
  std::string name;
  std::string gpu_type;
  uint32_t gpus = 0;
  uint32_t free_gpus = 0;
  bool drained = false;
  std::vector<uint32_t> gpu_jobs;  // per node-local GPU index: the holding job's id, 0 = free
  bool drained_by_executor = false;  // drained because the executor (Slurm) had it out of service
};

// Who drained a node: an operator (boreas drain, the API), or the executor's node watcher because
// its own scheduler (Slurm) has the node down or drained. Stored, so it survives a restart: the
// watcher resumes only nodes it drained itself.
enum class DrainOrigin : uint8_t { kOperator, kExecutor };

// Who asks for a change: the token's name, and the peer address of the request (both audited).
struct Caller {
  Caller(std::string n, std::string p = "") : name(std::move(n)), peer(std::move(p)) {}  // NOLINT
  Caller(const char* n) : name(n) {}  // NOLINT: tests and tools name callers with literals
  std::string name;
  std::string peer;
};

// A submit's answer: the job, and whether an earlier submit with the same Idempotency-Key made it.
struct Submitted {
  LiveJob job;
  bool replayed = false;
};

// A change made on the controller thread, and the durable write that backs it.
template <typename T>
struct Pending {
  Result<T> value;
  std::optional<std::future<Status>> durable;
};

class Controller {
 public:
  Controller(ControllerConfig config, Store& store, Executor& executor, MetricsRegistry& metrics);
  ~Controller();
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  Status recover();  // before start(): rebuild from the store, reconcile with the executor
  void start();
  void stop();
  bool ready() const;

  Result<LiveJob> submit(const Caller& who, SubmitRequest req);
  // Nothing runs that is not committed: the job enters the table only once its row is durable.
  // A non-empty key makes a retried submit (same owner and key) return the first job.
  Result<Submitted> submit_once(const Caller& who, SubmitRequest req, const std::string& key);
  // New queue tree and policy (SIGHUP); the cluster stays as it is.
  void reconfigure(std::optional<QueueTree> queues, std::shared_ptr<policy::Scheduler> scheduler);
  Result<LiveJob> cancel(const Caller& who, JobId id);
  Result<LiveJob> checkpoint(const Caller& who, JobId id);
  Status set_drained(const Caller& who, const std::string& node, bool drained,
                     DrainOrigin origin = DrainOrigin::kOperator);
  void set_log(JsonLog* log) { log_ = log; }  // structured logs; none when null (tests)
  void set_retention(Retention r) { retention_ = std::move(r); }  // before start()

  // A job in memory (not ended, or ended and its last row not yet durable), else from the store.
  Result<LiveJob> job(JobId id);
  std::vector<LiveJob> jobs();  // the jobs in memory, by id: every job not ended
  // Jobs in memory merged with ended jobs read from the store, by id; one page.
  Result<JobPage> list(const JobQuery& q);
  std::vector<QueueView> queues();
  std::vector<NodeView> nodes();
  std::string node_name(int32_t node) const;
  std::vector<std::string> node_names(const LiveJob& job) const;  // its nodes' names, in placement order
  nlohmann::json placement_json(const LiveJob& job) const;         // [{"node", "gpu_indexes"}, ...]
  void refresh_metrics();  // recomputes the state gauges (before a scrape)
  Duration run_round();     // runs a scheduling round now and returns how long it took
  MetricFamily& submit_latency() { return *submit_seconds_; }
  // The ClusterState the scheduler sees, in API ids and canonical form (invariants checked): two
  // controllers with the same jobs in the same states give the same text. For tests.
  std::string state_digest();

 private:
  // Runs `f` on the controller thread and returns its result.
  template <typename T>
  T call(std::function<T()> f);
  template <typename T>
  Result<T> commit(Pending<T> p);

  void loop();
  void tick();
  Duration timed_round();
  void post(std::function<void()> task);

  // controller thread only
  Pending<Submitted> do_submit(const Caller& who, SubmitRequest req, const std::string& key);
  Pending<Submitted> replay(JobId id, const SubmitRequest& req);
  void settle_submit(JobId id, bool committed);
  Pending<LiveJob> do_cancel(const Caller& who, JobId id);
  Pending<LiveJob> do_checkpoint(const Caller& who, JobId id);
  Pending<bool> do_drain(const Caller& who, const std::string& node, bool drained, DrainOrigin origin);
  Status ended_or_missing(JobId id, const std::string& wanted);
  void note(std::string_view event, const nlohmann::json& fields);
  Status validate(const SubmitRequest& req, int32_t& priority) const;
  // controller_deps.cpp: sbatch --dependency
  Status check_dependency_jobs(const SubmitRequest& req) const;
  std::optional<JobState> state_of_job(JobId id) const;
  bool waits_on_dependency(const LiveJob& job) const;
  void resolve_dependencies(Time now);
  LiveJob* find(JobId id);
  void schedule();
  Status check_allocation(const LiveJob& j) const;
  Status check_node_allocation(JobId id, const JobNode& p) const;
  std::optional<std::vector<JobNode>> placement_of(const policy::Start& start) const;
  bool plan_round(Time now);
  bool apply_plan(const policy::Plan& plan);
  void preempt(LiveJob& victim);
  bool awaits_victim(const LiveJob& job);
  std::vector<JobId> holders(const policy::Start& start) const;
  std::vector<uint32_t> most_free_by_type() const;
  void why_pending(const LiveJob& job, const std::vector<uint32_t>& most_free, std::string& out) const;
  const std::string& why_text(const LiveJob& job, const std::vector<uint32_t>& most_free);
  void explain_pending(LiveJob& job, JobId slot, bool planned, const std::vector<uint32_t>& most_free);
  void explain_all(const std::set<uint32_t>& planned, const std::vector<uint32_t>& most_free);
  JobSpec spec_of(const LiveJob& job);
  uint32_t largest_node_of(const std::string& type) const;
  bool take_start(const policy::Start& start, LiveJob& job);
  void launch_all(std::vector<LiveJob*>& starting);
  void apply_exit(const JobExit& e);
  void apply_waits();
  void apply_starts();
  bool take_executor_start(LiveJob& job, Time at);
  void fail_or_restart(LiveJob& job, const std::string& what);
  std::vector<JobExit> reconcile();
  LaunchRequest launch_request(const LiveJob& job) const;
  std::future<Status> write_async(std::vector<SqlStatement> rows);
  Status load_drained();
  void retire(LiveJob& job, std::future<Status> written);
  void drop_retired();
  void prune_history(Time now);
  void forget(const LiveJob& job);

  // share_starts.cpp: jobs on a share of one GPU, started after each round.
  Status validate_share(const SubmitRequest& req) const;
  std::vector<LiveJob*> share_queue();
  void start_shares();

  // The long-lived ClusterState (controller_state.cpp): see the comment there.
  Status fill_state();
  JobId add_slot(const LiveJob& job);
  void enter_state(LiveJob& job);
  void state_started(const LiveJob& job);
  Status start_in_state(JobId slot, const LiveJob& job);
  void state_left_running(const LiveJob& job);
  void state_cancelled(const LiveJob& job);
  void set_stopping(LiveJob& job);
  bool set_aside(LiveJob& job);
  void bring_back_set_aside();
  void state_drained(size_t node, bool drained);
  void state_error(const Status& s);
  JobId slot_of(JobId id) const;
  uint32_t job_at(GpuId gpu) const;  // the API id of the job holding `gpu`, 0 = free

  ControllerConfig config_;
  Store& store_;
  Executor& executor_;
  std::map<uint32_t, LiveJob> jobs_;  // by id: jobs not ended, and ended ones until their row is durable
  policy::ReasonBook reasons_;        // by slot: the policy's latest reason for each job, from every plan
  std::string reason_scratch_;        // explain_pending's buffer, reused every round
  struct ReasonMemo {
    uint32_t gpus = 0;
    std::string gpu_type;
    std::string text;
  };
  std::vector<ReasonMemo> reason_memo_;  // why_pending's texts this round, by (GPUs, type)
  size_t with_dependency_ = 0;        // jobs_ entries with a dependency: rounds skip the walk at 0
  std::vector<std::pair<uint32_t, std::future<Status>>> retired_;  // ended jobs' last writes, by id
  uint32_t last_id_ = 0;  // the largest id given out (or stored)
  std::map<uint32_t, LiveJob> uncommitted_;  // submits whose rows are being stored, by id
  std::map<std::pair<std::string, std::string>, JobId> idempotent_;  // (owner, key) -> job in memory
  std::vector<bool> drained_;
  std::vector<bool> executor_drained_;  // per node: drained by the executor's watcher (DrainOrigin)
  std::set<uint32_t> executor_waiting_;  // running jobs the executor still keeps waiting (executor_wait)
  mutable std::unordered_map<std::string, uint32_t> largest_node_;  // GPU type name -> most GPUs on one node
  bool dirty_ = true;  // something changed since the last scheduling round
  std::chrono::steady_clock::time_point next_round_;  // tick() runs no round before then
  std::optional<Time> wake_;  // the policy asked to be called again then
  Retention retention_;
  Time next_prune_;           // when retention looks for old ended jobs again
  std::map<std::pair<std::string, std::string>, int64_t> ended_counts_;  // stored ended jobs by (state, queue)
  SymbolTable symbols_;
  JsonLog* log_ = nullptr;

  // The state's job table is append-only: a slot per job that entered it since this start.
  std::unique_ptr<state::ClusterState> state_;
  std::vector<uint32_t> slot_job_;                // slot -> API id; 0 = unused
  std::unordered_map<uint32_t, JobId> job_slot_;  // API id -> slot, for jobs in memory
  std::vector<LiveJob*> slot_live_;               // slot -> its job in jobs_; null once it left memory
  std::set<uint32_t> set_aside_;  // pending jobs held in the state until their victims exit or dependencies hold
  mutable std::unordered_map<uint32_t, JobState> ended_states_;  // ended jobs read from the store for dependencies
  std::set<uint32_t> unplaced_;                   // at recovery: recorded running, process gone

  MetricFamily* jobs_gauge_;
  MetricFamily* gpus_gauge_;
  MetricFamily* queue_gpus_gauge_;
  MetricFamily* queue_guarantee_gauge_;
  MetricFamily* store_errors_;
  MetricFamily* round_seconds_;
  MetricFamily* submit_seconds_;
  MetricFamily* executor_waiting_gauge_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  bool ready_ = false;
  std::thread thread_;
};

// Templates used from several of the controller's source files.
template <typename T>
inline T Controller::call(std::function<T()> f) {
  auto task = std::make_shared<std::packaged_task<T()>>(std::move(f));
  auto result = task->get_future();
  post([task] { (*task)(); });
  return result.get();
}

template <typename T>
inline Result<T> Controller::commit(Pending<T> p) {
  if (p.durable) {
    Status s = p.durable->get();
    if (!s.is_ok()) {
      return s.with_context("the change was not stored: ");
    }
  }
  return std::move(p.value);
}

}  // namespace boreas::server
