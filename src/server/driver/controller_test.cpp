#include "server/driver/controller.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "config/cluster_spec.h"
#include "policy/boreas_policy.h"
#include "server/exec/local_executor.h"
#include "server/jobs/job_records.h"
#include "server/testing/test_cluster.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

// Snapshots of the job table and the nodes, taken every 2 ms on a thread until stop().
class Watch {
 public:
  struct Snapshot {
    std::vector<LiveJob> jobs;
    std::vector<NodeView> nodes;
  };
  explicit Watch(Controller& ctl) : thread_([this, &ctl] {
    while (!done_) {
      Snapshot s{ctl.jobs(), ctl.nodes()};
      if (running(s.jobs) == running(ctl.jobs())) {  // nothing started or ended in between
        snaps_.push_back(std::move(s));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }) {}
  ~Watch() { stop(); }
  const std::vector<Snapshot>& stop() {
    done_ = true;
    if (thread_.joinable()) {
      thread_.join();
    }
    return snaps_;
  }

 private:
  static std::vector<std::pair<uint32_t, uint32_t>> running(const std::vector<LiveJob>& jobs) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const LiveJob& j : jobs) {
      if (j.state == JobState::kRunning) {
        out.emplace_back(j.id.value(), j.attempts);
      }
    }
    return out;
  }
  std::atomic<bool> done_{false};
  std::vector<Snapshot> snaps_;
  std::thread thread_;
};

// Empty when no GPU is held by two running jobs and each node's free count is what they leave.
std::string gpu_conflict(const Watch::Snapshot& s) {
  std::map<std::pair<int32_t, uint32_t>, uint32_t> owner;
  std::vector<uint32_t> held(s.nodes.size(), 0);
  for (const LiveJob& j : s.jobs) {
    for (const JobNode& p : j.state == JobState::kRunning ? j.placement : std::vector<JobNode>{}) {
      for (uint32_t g : p.gpus) {
        const auto [it, fresh] = owner.emplace(std::pair{p.node, g}, j.id.value());
        if (!fresh) {
          return "GPU " + std::to_string(g) + " held by jobs " + std::to_string(it->second) + " and " +
                 std::to_string(j.id.value());
        }
        held[static_cast<size_t>(p.node)] += 1;
      }
    }
  }
  for (size_t n = 0; n < s.nodes.size(); ++n) {
    if (s.nodes[n].free_gpus + held[n] != s.nodes[n].gpus) {
      return s.nodes[n].name + ": " + std::to_string(s.nodes[n].free_gpus) + " free, " +
             std::to_string(held[n]) + " held by running jobs";
    }
  }
  return "";
}

class ControllerTest : public ::testing::Test {
 protected:
  void SetUp() override { open(); }
  // Jobs outlive their daemon by design (the next start adopts them), so a test that failed half-way
  // would leave its jobs running — holding ctest's output pipe open, so the whole run never ended.
  void TearDown() override {
    for (int i = 0; ctl_ && ctl_->ready() && i < 500; ++i) {
      bool live = false;
      for (const LiveJob& j : ctl_->jobs()) {
        if (!is_terminal(j.state)) {
          live = true;
          (void)ctl_->cancel("teardown", j.id);
        }
      }
      if (!live) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  void open() {
    auto s = Store::open(dir_.path() + "/boreas.db");
    ASSERT_TRUE(s.is_ok()) << s.status().message();
    store_ = std::move(*s);
    executor_ = std::make_unique<LocalExecutor>(
        LocalExecutorOptions{dir_.path() + "/jobs", Duration::millis(300), {"PATH=/usr/bin:/bin"}, true});
    metrics_ = std::make_unique<MetricsRegistry>();
    ctl_ = std::make_unique<Controller>(
        ControllerConfig{cluster_, scheduler_, queues_, Duration::millis(5), wall_clock}, *store_, *executor_,
        *metrics_);
    ASSERT_TRUE(ctl_->recover().is_ok());
    ctl_->start();
  }
  // A restart is a new process: new scheduler objects too.
  void restart() {
    ctl_.reset();
    executor_.reset();
    store_.reset();
    scheduler_ = new_scheduler_();
    open();
  }
  // Restarts under the boreas policy with these queues on one node of `gpus` GPUs.
  void use_queues(const std::string& yaml, uint32_t gpus, policy::PreemptionOptions preemption = {}) {
    cluster_ = test_cluster(1, gpus);
    auto tree = config::load_queues_string(yaml, "queues.yaml", cluster_);
    ASSERT_TRUE(tree.is_ok()) << tree.status().message();
    queues_ = *tree;
    policy::PolicyOptions options;
    options.tenancy.queues = std::make_shared<QueueTree>(*tree);
    options.tenancy.preemption = preemption;
    new_scheduler_ = [options] { return test_scheduler("boreas", options); };
    restart();
  }
  SubmitRequest sh(const std::string& script, uint32_t gpus = 0) {
    SubmitRequest r;
    r.command = {"sh", "-c", script};
    r.cwd = dir_.path();
    r.gpus = gpus;
    return r;
  }
  LiveJob wait_state(JobId id, JobState want) {
    for (int i = 0; i < 2000; ++i) {
      auto j = ctl_->job(id);
      if (j.is_ok() && j->state == want) {
        return *j;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ADD_FAILURE() << "job " << id.value() << " never became " << to_string(want);
    return {};
  }
  void wait_file(const std::string& name) {
    for (int i = 0; i < 2000 && !std::filesystem::exists(dir_.path() + "/" + name); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(std::filesystem::exists(dir_.path() + "/" + name)) << name;
  }
  // Submits to `queue`, then waits until the job runs and its script touched `ready`.
  JobId run_until_ready(SubmitRequest r, const std::string& queue, const std::string& priority_class = "") {
    r.queue = queue;
    r.priority_class = priority_class;
    auto j = ctl_->submit("alice", std::move(r));
    if (!j.is_ok()) {
      ADD_FAILURE() << j.status().message();
      return JobId();
    }
    wait_state(j->id, JobState::kRunning);
    wait_file("ready");
    return j->id;
  }
  std::string slurp(const std::string& name) {
    std::ifstream f(dir_.path() + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }

  TempDir dir_;
  Cluster cluster_ = test_cluster(2, 4);
  std::function<std::shared_ptr<policy::Scheduler>()> new_scheduler_ = [] { return test_scheduler(); };
  std::shared_ptr<policy::Scheduler> scheduler_ = new_scheduler_();
  std::optional<QueueTree> queues_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<LocalExecutor> executor_;
  std::unique_ptr<MetricsRegistry> metrics_;
  std::unique_ptr<Controller> ctl_;
};

// GET /v1/queues's guarantee and borrow limit: the spec's quotas; no borrow limit = unlimited.
TEST_F(ControllerTest, QueuesNameTheirGuaranteeAndBorrowLimit) {
  use_queues(R"(queues:
  - {name: capped, quotas: [{gpu: "*", guaranteed: 2, borrow_limit: 1}]}
  - {name: open, quotas: [{gpu: "*", guaranteed: 1}]}
  - {name: bare}
)", 4);
  const std::vector<QueueView> queues = ctl_->queues();
  ASSERT_EQ(queues.size(), 3u);
  EXPECT_EQ(queues[0].name, "bare");  // by name
  EXPECT_EQ(queues[0].guaranteed_gpus, 0u);
  EXPECT_EQ(queues[0].borrow_limit_gpus, std::nullopt);
  EXPECT_EQ(queues[1].name, "capped");
  EXPECT_EQ(queues[1].guaranteed_gpus, 2u);
  EXPECT_EQ(queues[1].borrow_limit_gpus, std::optional<uint32_t>(1));
  EXPECT_EQ(queues[2].name, "open");
  EXPECT_EQ(queues[2].guaranteed_gpus, 1u);
  EXPECT_EQ(queues[2].borrow_limit_gpus, std::nullopt);
}

TEST_F(ControllerTest, RunsAJobOnItsGpusToCompletion) {
  auto j = ctl_->submit("alice", sh("echo $CUDA_VISIBLE_DEVICES > gpus.txt", 3));
  ASSERT_TRUE(j.is_ok()) << j.status().message();
  EXPECT_EQ(j->id, JobId(1));
  const LiveJob done = wait_state(j->id, JobState::kCompleted);
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_EQ(done.attempts, 1u);
  EXPECT_EQ(slurp("gpus.txt"), "0,1,2\n");
}

TEST_F(ControllerTest, NodesListWhichJobHoldsEachGpu) {
  auto j = ctl_->submit("alice", sh("sleep 30", 3));
  ASSERT_TRUE(j.is_ok());
  wait_state(j->id, JobState::kRunning);
  const auto nodes = ctl_->nodes();
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].gpu_jobs, (std::vector<uint32_t>{1, 1, 1, 0}));
  EXPECT_EQ(nodes[1].gpu_jobs, (std::vector<uint32_t>{0, 0, 0, 0}));
  ASSERT_TRUE(ctl_->cancel("alice", j->id).is_ok());
  wait_state(j->id, JobState::kCancelled);
}

TEST_F(ControllerTest, RefusesImpossibleRequests) {
  SubmitRequest big = sh("true", 5);
  auto j = ctl_->submit("alice", big);
  ASSERT_FALSE(j.is_ok());
  EXPECT_NE(j.status().message().find("$.gpus"), std::string::npos) << j.status().message();
  SubmitRequest typed = sh("true", 1);
  typed.gpu_type = "TPUv9";
  j = ctl_->submit("alice", typed);
  ASSERT_FALSE(j.is_ok());
  EXPECT_NE(j.status().message().find("H100"), std::string::npos) << j.status().message();
}

TEST_F(ControllerTest, PendingJobSaysWhyAndStartsWhenGpusFree) {
  auto a = ctl_->submit("alice", sh("sleep 0.3", 4));
  auto b = ctl_->submit("alice", sh("sleep 0.3", 4));
  auto c = ctl_->submit("alice", sh("true", 4));
  ASSERT_TRUE(a.is_ok() && b.is_ok() && c.is_ok());
  wait_state(a->id, JobState::kRunning);
  wait_state(b->id, JobState::kRunning);
  // Rounds are 20 ms apart, and one that ran while a and b were still being started may have
  // said something else first; once both run, the reason is the no-fit one.
  const std::string no_fit = "no fit: needs 4 GPUs on one undrained node; the most free now is 0";
  LiveJob waiting = wait_state(c->id, JobState::kPending);
  for (int i = 0; i < 300 && waiting.state == JobState::kPending && waiting.reason != no_fit; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    waiting = ctl_->job(c->id).value();
  }
  EXPECT_EQ(waiting.reason, no_fit);
  wait_state(c->id, JobState::kCompleted);
}

TEST_F(ControllerTest, CancelsPendingAndRunningJobs) {
  auto run = ctl_->submit("alice", sh("sleep 30", 4));
  auto wait = ctl_->submit("alice", sh("sleep 30", 4));
  auto more = ctl_->submit("alice", sh("sleep 30", 4));
  ASSERT_TRUE(run.is_ok() && wait.is_ok() && more.is_ok());
  wait_state(run->id, JobState::kRunning);
  wait_state(wait->id, JobState::kRunning);
  auto c = ctl_->cancel("bob", more->id);
  ASSERT_TRUE(c.is_ok());
  EXPECT_EQ(c->state, JobState::kCancelled);
  ASSERT_TRUE(ctl_->cancel("bob", run->id).is_ok());
  ASSERT_TRUE(ctl_->cancel("bob", wait->id).is_ok());
  wait_state(run->id, JobState::kCancelled);
  wait_state(wait->id, JobState::kCancelled);
  EXPECT_EQ(ctl_->cancel("bob", run->id).status().code(), ErrorCode::kConflict);
  EXPECT_EQ(ctl_->cancel("bob", JobId(99)).status().code(), ErrorCode::kNotFound);
}

TEST_F(ControllerTest, CheckpointSignalsThenResumes) {
  auto j = ctl_->submit("alice", sh("if [ -f ckpt ]; then echo resumed > out; exit 0; fi; "
                                    "trap 'echo saved > ckpt; exit 0' USR1; touch ready; "
                                    "while true; do sleep 0.05; done", 1));
  ASSERT_TRUE(j.is_ok());
  wait_state(j->id, JobState::kRunning);
  // The handler must be installed before the signal: a fixed sleep races with a loaded machine.
  for (int i = 0; i < 2000 && !std::filesystem::exists(dir_.path() + "/ready"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(std::filesystem::exists(dir_.path() + "/ready"));
  ASSERT_TRUE(ctl_->checkpoint("alice", j->id).is_ok());
  const LiveJob done = wait_state(j->id, JobState::kCompleted);
  EXPECT_EQ(done.attempts, 2u);
  EXPECT_EQ(slurp("ckpt"), "saved\n");
  EXPECT_EQ(slurp("out"), "resumed\n");
}

TEST_F(ControllerTest, DrainedNodeTakesNoNewJobsAndSurvivesRestart) {
  ASSERT_TRUE(ctl_->set_drained("admin", "node0", true).is_ok());
  auto j = ctl_->submit("alice", sh("true", 1));
  ASSERT_TRUE(j.is_ok());
  const LiveJob done = wait_state(j->id, JobState::kCompleted);
  EXPECT_EQ(done.exit_code, 0);
  auto rows = store_->query({"SELECT allocation FROM jobs WHERE id = 1", {}});
  ASSERT_TRUE(rows.is_ok());
  EXPECT_EQ(as_text(rows->at(0)[0]), "1:0");
  restart();
  const auto nodes = ctl_->nodes();
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_TRUE(nodes[0].drained);
  EXPECT_FALSE(nodes[1].drained);
  EXPECT_EQ(ctl_->set_drained("admin", "nope", true).code(), ErrorCode::kNotFound);
}

TEST_F(ControllerTest, RestartAdoptsRunningJobsAndKeepsHistory) {
  auto done = ctl_->submit("alice", sh("true"));
  ASSERT_TRUE(done.is_ok());
  wait_state(done->id, JobState::kCompleted);
  auto running = ctl_->submit("alice", sh("sleep 0.5; echo once >> runs.txt", 2));
  ASSERT_TRUE(running.is_ok());
  wait_state(running->id, JobState::kRunning);
  restart();
  auto again = ctl_->job(done->id);
  ASSERT_TRUE(again.is_ok());
  EXPECT_EQ(again->state, JobState::kCompleted);
  const LiveJob finished = wait_state(running->id, JobState::kCompleted);
  EXPECT_EQ(finished.attempts, 1u);
  EXPECT_EQ(slurp("runs.txt"), "once\n");
  auto audit = store_->query({"SELECT who, action, target FROM audit ORDER BY seq", {}});
  ASSERT_TRUE(audit.is_ok());
  ASSERT_EQ(audit->size(), 2u);
  EXPECT_EQ(as_text(audit->at(1)[2]), "job/2");
}

// A restart whose cluster no longer has a running job's GPUs (spec edited, or NVML found fewer)
// refuses to start with the job and the GPUs named, rather than holding GPUs that do not exist.
TEST_F(ControllerTest, RestartRefusesAClusterWithoutARunningJobsGpus) {
  auto job = ctl_->submit("alice", sh("touch ready; while [ ! -f go ]; do sleep 0.05; done", 4));
  ASSERT_TRUE(job.is_ok());
  wait_state(job->id, JobState::kRunning);
  wait_file("ready");
  ctl_.reset();
  executor_.reset();
  const Cluster before = cluster_;
  cluster_ = test_cluster(2, 2);
  auto s = Store::open(dir_.path() + "/boreas.db");
  ASSERT_TRUE(s.is_ok());
  LocalExecutor executor({dir_.path() + "/jobs", Duration::millis(300), {"PATH=/usr/bin:/bin"}});
  MetricsRegistry metrics;
  Controller smaller(ControllerConfig{cluster_, scheduler_, queues_, Duration::millis(5), wall_clock}, **s,
                     executor, metrics);
  const Status st = smaller.recover();
  EXPECT_EQ(st.code(), ErrorCode::kConflict);
  EXPECT_NE(st.message().find("job 1 is recorded running on node #0 GPU(s) 0,1,2,3, of which the cluster now "
                              "has only 2 GPU(s) on (node0)"),
            std::string::npos)
      << st.message();
  cluster_ = before;  // the job is still there and finishes under its own cluster
  store_.reset();
  open();
  std::ofstream(dir_.path() + "/go").put('\n');
  EXPECT_EQ(wait_state(job->id, JobState::kCompleted).attempts, 1u);
}

TEST_F(ControllerTest, OnFailureRestartsUntilItSucceedsOrRunsOut) {
  // Fails on its first two runs, succeeds on the third.
  SubmitRequest flaky = sh("n=$(cat count 2>/dev/null || echo 0); echo $((n + 1)) > count; [ $n -ge 2 ]");
  flaky.restart = {true, 5};
  SubmitRequest broken = sh("exit 3");
  broken.restart = {true, 1};
  auto a = ctl_->submit("alice", flaky);
  ASSERT_TRUE(a.is_ok());
  const LiveJob ok = wait_state(a->id, JobState::kCompleted);
  EXPECT_EQ(ok.attempts, 3u);
  EXPECT_EQ(ok.restarts, 2u);
  EXPECT_EQ(slurp("count"), "3\n");
  auto b = ctl_->submit("alice", broken);
  auto c = ctl_->submit("alice", sh("exit 3"));  // restart never (the default)
  ASSERT_TRUE(b.is_ok() && c.is_ok());
  const LiveJob gave_up = wait_state(b->id, JobState::kFailed);
  EXPECT_EQ(gave_up.attempts, 2u);
  EXPECT_EQ(gave_up.restarts, 1u);
  EXPECT_EQ(gave_up.reason, "exit 3; no restarts left (restart on-failure:1)");
  const LiveJob once = wait_state(c->id, JobState::kFailed);
  EXPECT_EQ(once.attempts, 1u);
  EXPECT_EQ(once.restarts, 0u);
  restart();  // the restart count is durable
  EXPECT_EQ(ctl_->job(a->id)->restarts, 2u);
}

// A crash: the daemon is down and the job's whole process group is killed, so no exit status is
// left. On restart the policy decides: on-failure requeues (and it runs again), never fails it.
TEST_F(ControllerTest, LostProcessAfterACrashIsRequeuedOrFailedByItsPolicy) {
  SubmitRequest again = sh("if [ -f ran ]; then exit 0; fi; touch ran; sleep 30", 1);
  again.restart = {true, 2};
  auto a = ctl_->submit("alice", again);
  auto b = ctl_->submit("alice", sh("sleep 30", 1));
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  const int32_t pid_a = wait_state(a->id, JobState::kRunning).process.pid;
  const int32_t pid_b = wait_state(b->id, JobState::kRunning).process.pid;
  for (int i = 0; i < 2000 && !std::filesystem::exists(dir_.path() + "/ran"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // its first run has begun
  }
  ctl_.reset();
  executor_.reset();
  store_.reset();
  for (int32_t pid : {pid_a, pid_b}) {
    ASSERT_EQ(kill(-pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);  // the test forked it; reap it like init would
  }
  open();
  const LiveJob failed = wait_state(b->id, JobState::kFailed);
  EXPECT_NE(failed.reason.find("lost"), std::string::npos) << failed.reason;
  EXPECT_NE(failed.reason.find("restart never"), std::string::npos) << failed.reason;
  EXPECT_EQ(failed.attempts, 1u);
  const LiveJob done = wait_state(a->id, JobState::kCompleted);
  EXPECT_EQ(done.attempts, 2u);
  EXPECT_EQ(done.restarts, 1u);
}

// Queue a borrows b's guarantee; b's job reclaims it. The victim ignores SIGUSR1 and leaves on
// SIGTERM after the grace period; until then its GPUs are its own, and rounds run meanwhile must
// neither start the preemptor on them nor signal the victim again.
TEST_F(ControllerTest, PreemptorStartsOnlyAfterItsVictimExited) {
  use_queues("queues:\n"
             "  - {name: a, quotas: [{gpu: '*', guaranteed: 0}]}\n"
             "  - {name: b, quotas: [{gpu: '*', guaranteed: 4}]}\n",
             4);
  SubmitRequest victim = sh("[ -f stopped ] && exit 0; trap 'echo usr1 >> usr1.log' USR1; "
                            "trap 'date +%s%N > victim.end; touch stopped; exit 0' TERM; touch ready; "
                            "while true; do sleep 0.05; done",
                            4);
  const JobId v = run_until_ready(victim, "a");
  Watch watch(*ctl_);
  SubmitRequest reclaim = sh("date +%s%N > preemptor.start; sleep 0.3", 4);
  reclaim.queue = "b";
  auto p = ctl_->submit("bob", reclaim);
  ASSERT_TRUE(p.is_ok());
  for (int i = 0; i < 3; ++i) {  // more rounds during the victim's grace period
    SubmitRequest nudge = sh("true");
    nudge.queue = "b";
    ASSERT_TRUE(ctl_->submit("bob", nudge).is_ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  wait_state(p->id, JobState::kCompleted);
  EXPECT_EQ(wait_state(v, JobState::kCompleted).attempts, 2u);
  bool said_why = false;
  std::string conflict;
  for (const Watch::Snapshot& s : watch.stop()) {
    conflict = conflict.empty() ? gpu_conflict(s) : conflict;
    for (const LiveJob& j : s.jobs) {
      said_why = said_why || (j.id == p->id && j.state == JobState::kPending &&
                              j.reason.find("job 1") != std::string::npos);
    }
  }
  EXPECT_EQ(conflict, "");
  EXPECT_TRUE(said_why) << "the preemptor never said it waits for job 1";
  EXPECT_EQ(slurp("usr1.log"), "usr1\n");  // asked once, though rounds ran during its grace
  wait_file("victim.end");
  wait_file("preemptor.start");
  EXPECT_LT(std::stoll(slurp("victim.end")), std::stoll(slurp("preemptor.start")));
}

// The policy's per-job preemption cap holds live: each round's rebuilt state carries how often
// a job was preempted (and it survives a restart). Capped at 1, the low job is preempted by the
// first high job only; the second high job waits for it to finish.
TEST_F(ControllerTest, PreemptionCapHoldsAcrossRounds) {
  use_queues("priority_classes:\n"
             "  - {name: high, value: 100}\n"
             "  - {name: low, value: 1}\n"
             "queues:\n"
             "  - {name: q, quotas: [{gpu: '*', guaranteed: 4}]}\n",
             4, policy::PreemptionOptions{.min_runtime = Duration::zero(), .max_per_job = 1});
  SubmitRequest low = sh("if [ -f first ]; then trap 'echo usr1 >> usr1.log' USR1; touch second; "
                         "while [ ! -f go ]; do sleep 0.05; done; exit 0; fi; "
                         "trap 'echo usr1 >> usr1.log; touch first; exit 0' USR1; touch ready; "
                         "while true; do sleep 0.05; done",
                         4);
  const JobId v = run_until_ready(low, "q", "low");
  SubmitRequest high = sh("true", 4);
  high.queue = "q";
  high.priority_class = "high";
  auto h1 = ctl_->submit("bob", high);
  ASSERT_TRUE(h1.is_ok()) << h1.status().message();
  wait_state(h1->id, JobState::kCompleted);
  wait_file("second");  // the low job runs again
  auto h2 = ctl_->submit("bob", high);
  ASSERT_TRUE(h2.is_ok());
  ctl_->run_round();
  ctl_->run_round();
  const LiveJob again = *ctl_->job(v);
  EXPECT_EQ(again.state, JobState::kRunning);
  EXPECT_FALSE(again.stopping) << again.reason;
  EXPECT_EQ(again.preemptions, 1u);
  EXPECT_EQ(ctl_->job(h2->id)->state, JobState::kPending);
  std::ofstream(dir_.path() + "/go").put('\n');
  EXPECT_EQ(wait_state(v, JobState::kCompleted).attempts, 2u);
  wait_state(h2->id, JobState::kCompleted);
  EXPECT_EQ(slurp("usr1.log"), "usr1\n");
  restart();
  EXPECT_EQ(ctl_->job(v)->preemptions, 1u);
}

// Through its grace period a victim still holds its GPUs and the preemptor none, so fair share
// charges the victim's queue for them. The victim ignores SIGUSR1 and leaves on SIGTERM, 300 ms
// later; the preemptor runs `true`, so queue b's own use is a few milliseconds of 4 GPUs.
TEST_F(ControllerTest, FairShareChargesTheVictimThroughItsGrace) {
  use_queues("queues:\n"
             "  - {name: a, quotas: [{gpu: '*', guaranteed: 0}]}\n"
             "  - {name: b, quotas: [{gpu: '*', guaranteed: 4}]}\n",
             4);
  SubmitRequest victim = sh("[ -f stopped ] && exit 0; trap '' USR1; trap 'touch stopped; exit 0' TERM; "
                            "touch ready; while true; do sleep 0.05; done",
                            4);
  const JobId v = run_until_ready(victim, "a");
  SubmitRequest reclaim = sh("true", 4);
  reclaim.queue = "b";
  auto p = ctl_->submit("bob", reclaim);
  ASSERT_TRUE(p.is_ok());
  wait_state(p->id, JobState::kCompleted);
  wait_state(v, JobState::kCompleted);
  ctl_->run_round();  // charges up to now
  ctl_->stop();       // the policy is read below, off the controller thread
  const auto& boreas = dynamic_cast<const policy::BoreasScheduler&>(*scheduler_);
  const double a = boreas.queue_share("a");
  const double b = boreas.queue_share("b");
  EXPECT_GT(a, 2 * b) << "share a " << a << ", b " << b;
}

// Passes rounds to fifo and keeps the most attained service it was shown for job 1 while pending.
class AttainedSpy final : public policy::Scheduler {
 public:
  std::string_view name() const override { return inner_->name(); }
  std::string_view placement_name() const override { return inner_->placement_name(); }
  policy::Plan schedule(const state::ClusterView& view) override {
    if (view.job_count() > 0 && view.pending().count(JobId(0)) > 0) {
      most_ = std::max(most_, view.attained_gpu_us(JobId(0)));
    }
    return inner_->schedule(view);
  }
  int64_t most_pending_attained_us() const { return most_; }

 private:
  std::shared_ptr<policy::Scheduler> inner_ = test_scheduler();
  int64_t most_ = 0;
};

// Attained service (LAS, Gittins, the boreas policy's order) survives a preemption: the time a
// job ran is stored, and the state goes on with it (and is rebuilt with it after a restart).
TEST_F(ControllerTest, RoundsSeeTheServiceAJobAlreadyReceived) {
  auto spy = std::make_shared<AttainedSpy>();
  new_scheduler_ = [spy] { return spy; };
  restart();
  const JobId j = run_until_ready(
      sh("[ -f ckpt ] && exit 0; trap 'touch ckpt; exit 0' USR1; touch ready; while true; do sleep 0.05; done", 2),
      "default");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(ctl_->checkpoint("alice", j).is_ok());
  const LiveJob done = wait_state(j, JobState::kCompleted);
  EXPECT_GE(done.ran.us(), 200'000);
  ctl_->stop();  // the spy is read below, off the controller thread
  EXPECT_GE(spy->most_pending_attained_us(), 2 * 200'000);  // 2 GPUs
  restart();
  EXPECT_EQ(ctl_->job(j)->ran.us(), done.ran.us());
}

// The policy's own explanation, when it has one, is the pending job's reason.
TEST_F(ControllerTest, PendingJobGivesThePolicysReason) {
  use_queues("queues:\n"
             "  - {name: capped, quotas: [{gpu: '*', guaranteed: 2, borrow_limit: 0}]}\n"
             "  - {name: open, quotas: [{gpu: '*', guaranteed: 2}]}\n",
             4);
  SubmitRequest first = sh("sleep 30", 2);
  first.queue = "capped";
  auto a = ctl_->submit("alice", first);
  ASSERT_TRUE(a.is_ok()) << a.status().message();
  wait_state(a->id, JobState::kRunning);
  SubmitRequest second = sh("true", 2);
  second.queue = "capped";
  auto b = ctl_->submit("alice", second);
  ASSERT_TRUE(b.is_ok());
  ctl_->run_round();
  const LiveJob waiting = *ctl_->job(b->id);
  EXPECT_EQ(waiting.state, JobState::kPending);
  EXPECT_TRUE(waiting.reason.starts_with("quota-exceeded: queue capped")) << waiting.reason;
  EXPECT_EQ(waiting.reason_kind, "quota-exceeded");
  ASSERT_TRUE(ctl_->cancel("alice", a->id).is_ok());
  wait_state(b->id, JobState::kCompleted);
}

}  // namespace
}  // namespace boreas::server

namespace boreas::server {
namespace {

// A submit whose commit failed leaves an unused id: the store then holds ids 1 and 3. The restart
// loads both, answers 404 for 2, runs 3, and gives the next submit 4.
TEST_F(ControllerTest, IdGapsLoadAndNewIdsKeepIncreasing) {
  auto first = ctl_->submit("alice", sh("true"));
  ASSERT_TRUE(first.is_ok());
  wait_state(first->id, JobState::kCompleted);
  LiveJob third;
  third.id = JobId(3);
  third.owner = "bob";
  third.request = sh("true");
  third.submit = wall_clock();
  ASSERT_TRUE(store_->write_sync({{insert_job_row(third)}}).is_ok());
  restart();
  EXPECT_EQ(ctl_->job(JobId(2)).status().code(), ErrorCode::kNotFound);
  wait_state(JobId(3), JobState::kCompleted);
  EXPECT_EQ(ctl_->list({}).value().jobs.size(), 2u);
  auto next = ctl_->submit("alice", sh("true"));
  ASSERT_TRUE(next.is_ok());
  EXPECT_EQ(next->id, JobId(4));
}

TEST_F(ControllerTest, IdempotencyKeyReturnsTheFirstJobAcrossARestart) {
  auto a = ctl_->submit_once("alice", sh("true"), "k1");
  ASSERT_TRUE(a.is_ok());
  EXPECT_FALSE(a->replayed);
  auto again = ctl_->submit_once("alice", sh("true"), "k1");
  ASSERT_TRUE(again.is_ok());
  EXPECT_TRUE(again->replayed);
  EXPECT_EQ(again->job.id, a->job.id);
  EXPECT_EQ(ctl_->submit_once("alice", sh("false"), "k1").status().code(), ErrorCode::kConflict);
  auto bobs = ctl_->submit_once("bob", sh("true"), "k1");  // keys are per owner
  ASSERT_TRUE(bobs.is_ok());
  EXPECT_FALSE(bobs->replayed);
  restart();
  auto after = ctl_->submit_once("alice", sh("true"), "k1");
  ASSERT_TRUE(after.is_ok());
  EXPECT_TRUE(after->replayed);
  EXPECT_EQ(after->job.id, a->job.id);
  EXPECT_EQ(ctl_->list({}).value().jobs.size(), 2u);
}

}  // namespace
}  // namespace boreas::server
