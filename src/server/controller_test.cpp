#include "server/controller.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "server/local_executor.h"
#include "server/test_cluster.h"
#include "server/test_util.h"

namespace boreas::server {
namespace {

class ControllerTest : public ::testing::Test {
 protected:
  void SetUp() override { open(); }
  void open() {
    auto s = Store::open(dir_.path() + "/boreas.db");
    ASSERT_TRUE(s.is_ok()) << s.status().message();
    store_ = std::move(*s);
    executor_ = std::make_unique<LocalExecutor>(
        LocalExecutorOptions{dir_.path() + "/jobs", Duration::millis(300), {"PATH=/usr/bin:/bin"}});
    metrics_ = std::make_unique<MetricsRegistry>();
    ctl_ = std::make_unique<Controller>(
        ControllerConfig{test_cluster(2, 4), test_scheduler(), std::nullopt, Duration::millis(5), wall_clock}, *store_,
        *executor_, *metrics_);
    ASSERT_TRUE(ctl_->recover().is_ok());
    ctl_->start();
  }
  void restart() {
    ctl_.reset();
    executor_.reset();
    store_.reset();
    open();
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
  std::string slurp(const std::string& name) {
    std::ifstream f(dir_.path() + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }

  TempDir dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<LocalExecutor> executor_;
  std::unique_ptr<MetricsRegistry> metrics_;
  std::unique_ptr<Controller> ctl_;
};

TEST_F(ControllerTest, RunsAJobOnItsGpusToCompletion) {
  auto j = ctl_->submit("alice", sh("echo $CUDA_VISIBLE_DEVICES > gpus.txt", 3));
  ASSERT_TRUE(j.is_ok()) << j.status().message();
  EXPECT_EQ(j->id, JobId(1));
  const LiveJob done = wait_state(j->id, JobState::kCompleted);
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_EQ(done.attempts, 1u);
  EXPECT_EQ(slurp("gpus.txt"), "0,1,2\n");
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
  const LiveJob waiting = wait_state(c->id, JobState::kPending);
  EXPECT_EQ(waiting.reason, "no fit: needs 4 GPUs on one undrained node; the most free now is 0");
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

}  // namespace
}  // namespace boreas::server
