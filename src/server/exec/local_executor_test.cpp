#include "server/exec/local_executor.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "server/exec/process.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

Time wall_now() {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  return Time::from_micros(us.count());
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class LocalExecutorTest : public ::testing::Test {
 protected:
  LocalExecutor make() {
    // Tests run as the daemon's own account (root in CI): jobs without a Unix account allowed.
    return LocalExecutor({dir_.path() + "/jobs", Duration::millis(300), {"PATH=/usr/bin:/bin"}, true});
  }
  LaunchRequest sh(uint32_t id, const std::string& script, std::vector<uint32_t> gpus = {}) {
    LaunchRequest r;
    r.job = JobId(id);
    r.argv = {"sh", "-c", script};
    r.cwd = dir_.path();
    r.gpu_indexes = std::move(gpus);
    r.started = wall_now();
    return r;
  }
  // Launches and releases; fails the test when launching fails.
  void start(LocalExecutor& ex, const LaunchRequest& r) {
    auto id = ex.launch(r);
    ASSERT_TRUE(id.is_ok()) << id.status().message();
    ASSERT_TRUE(ex.release(r.job).is_ok());
  }
  // Polls until one job exits; a generous bound keeps a broken executor from hanging the suite.
  JobExit wait_exit(Executor& ex) {
    for (int i = 0; i < 2000; ++i) {
      auto exits = ex.poll(wall_now());
      if (!exits.empty()) {
        return exits.front();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ADD_FAILURE() << "no job exited within 20 s";
    return {};
  }
  std::string file(const std::string& name) { return dir_.path() + "/" + name; }
  // Waits until a job's script has written `name` (e.g. after installing its signal handler):
  // a fixed sleep races with a loaded machine.
  void wait_for_file(const std::string& name) {
    for (int i = 0; i < 2000 && !std::filesystem::exists(file(name)); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(std::filesystem::exists(file(name))) << name << " not written within 20 s";
  }

  TempDir dir_;
};

TEST_F(LocalExecutorTest, CompletesWithItsGpusAndLogs) {
  auto ex = make();
  start(ex, sh(1, "echo \"gpus=$CUDA_VISIBLE_DEVICES job=$BOREAS_JOB_ID\"; echo oops >&2", {2, 3}));
  const JobExit e = wait_exit(ex);
  EXPECT_EQ(e.job, JobId(1));
  EXPECT_EQ(e.kind, ExitKind::kCompleted);
  EXPECT_EQ(e.exit_code, 0);
  EXPECT_EQ(slurp(ex.job_dir(JobId(1)) + "/stdout.log"), "gpus=2,3 job=1\n");
  EXPECT_EQ(slurp(ex.job_dir(JobId(1)) + "/stderr.log"), "oops\n");
  EXPECT_EQ(ex.running(), 0u);
}

TEST_F(LocalExecutorTest, NonZeroExitFails) {
  auto ex = make();
  start(ex, sh(2, "exit 3"));
  const JobExit e = wait_exit(ex);
  EXPECT_EQ(e.kind, ExitKind::kFailed);
  EXPECT_EQ(e.exit_code, 3);
}

TEST_F(LocalExecutorTest, UnknownCommandIsRefusedAtLaunch) {
  auto ex = make();
  LaunchRequest r = sh(3, "");
  r.argv = {"no-such-program-boreas"};
  auto id = ex.launch(r);
  ASSERT_FALSE(id.is_ok());
  EXPECT_NE(id.status().message().find("no-such-program-boreas"), std::string::npos);
}

TEST_F(LocalExecutorTest, CancelSendsSigtermToTheGroup) {
  auto ex = make();
  // `wait` in a loop: when the TERM that kills `sleep` ends the wait before the shell has taken its
  // own TERM, a script ending there could exit without running the trap (it failed so in CI).
  start(ex, sh(4, "trap 'echo term > " + file("term") + "; exit 0' TERM; touch " + file("ready") +
                  "; sleep 30 & while :; do wait; done"));
  wait_for_file("ready");
  ASSERT_TRUE(ex.cancel(JobId(4)).is_ok());
  const JobExit e = wait_exit(ex);
  EXPECT_EQ(e.kind, ExitKind::kCancelled);
  EXPECT_EQ(slurp(file("term")), "term\n");
}

// A cancel sent as the job is released, before its command is forked or has its signals back,
// still ends it by SIGTERM: with a grace longer than wait_exit's bound, only a SIGTERM that is
// sent again (no process yet) or kept pending (between the fork and the reset) ends it in time.
TEST_F(LocalExecutorTest, CancelAtReleaseEndsTheJobWithoutWaitingOutTheGrace) {
  LocalExecutor ex({dir_.path() + "/jobs", Duration::seconds(60), {"PATH=/usr/bin:/bin"}, true});
  for (uint32_t id = 30; id < 35; ++id) {
    start(ex, sh(id, "sleep 30"));
    ASSERT_TRUE(ex.cancel(JobId(id)).is_ok());
    const JobExit e = wait_exit(ex);
    EXPECT_EQ(e.job, JobId(id));
    EXPECT_EQ(e.kind, ExitKind::kCancelled);
  }
}

TEST_F(LocalExecutorTest, CancelEscalatesToSigkillAfterGrace) {
  auto ex = make();
  start(ex, sh(5, "trap '' TERM; touch " + file("ready") + "; while true; do sleep 0.05; done"));
  wait_for_file("ready");
  ASSERT_TRUE(ex.cancel(JobId(5)).is_ok());
  const JobExit e = wait_exit(ex);
  EXPECT_EQ(e.kind, ExitKind::kCancelled);
}

TEST_F(LocalExecutorTest, PreemptLetsTheHandlerCheckpoint) {
  auto ex = make();
  start(ex, sh(6, "trap 'echo saved > " + file("ckpt") + "; exit 0' USR1; touch " + file("ready") + "; " +
                  "while true; do sleep 0.05; done"));
  wait_for_file("ready");
  ASSERT_TRUE(ex.preempt(JobId(6)).is_ok());
  const JobExit e = wait_exit(ex);
  EXPECT_EQ(e.kind, ExitKind::kPreempted);
  EXPECT_EQ(slurp(file("ckpt")), "saved\n");
}

// A scheduler may ask again every round while the job checkpoints: the first ask's deadline holds.
TEST_F(LocalExecutorTest, RepeatedPreemptKeepsTheFirstDeadline) {
  auto ex = make();
  start(ex, sh(13, "trap 'echo usr1 >> " + file("usr1") + "' USR1; trap 'exit 0' TERM; touch " + file("ready") +
                   "; while true; do sleep 0.05; done"));
  wait_for_file("ready");
  std::vector<JobExit> exits;
  for (int i = 0; i < 150 && exits.empty(); ++i) {  // 3 s: ten times the grace
    ASSERT_TRUE(ex.preempt(JobId(13)).is_ok());
    exits = ex.poll(wall_now());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (exits.empty()) {
    (void)ex.cancel(JobId(13));  // SIGTERM now: the job must not outlive the test
    wait_exit(ex);
    FAIL() << "SIGTERM never came";
  }
  EXPECT_EQ(exits[0].kind, ExitKind::kPreempted);
  EXPECT_EQ(slurp(file("usr1")), "usr1\n");
}

TEST_F(LocalExecutorTest, TimeLimitStopsTheJob) {
  auto ex = make();
  LaunchRequest r = sh(7, "sleep 30");
  r.time_limit = Duration::millis(200);
  start(ex, r);
  const JobExit e = wait_exit(ex);
  EXPECT_EQ(e.kind, ExitKind::kTimedOut);
}

TEST_F(LocalExecutorTest, AbortedHeldJobNeverRuns) {
  auto ex = make();
  auto id = ex.launch(sh(8, "touch " + file("ran")));
  ASSERT_TRUE(id.is_ok());
  ASSERT_TRUE(ex.abort(JobId(8)).is_ok());
  EXPECT_FALSE(std::filesystem::exists(file("ran")));
}

TEST_F(LocalExecutorTest, HeldJobNeverRunsWhenTheDaemonGoesAway) {
  const LaunchRequest r = sh(9, "touch " + file("ran"));
  ProcessIdentity id;
  {
    auto ex = make();
    auto launched = ex.launch(r);
    ASSERT_TRUE(launched.is_ok());
    id = *launched;
  }
  int status = 0;
  ASSERT_EQ(waitpid(id.pid, &status, 0), id.pid);
  EXPECT_FALSE(std::filesystem::exists(file("ran")));
  // A restarted daemon learns it never ran, so it may run it whatever the restart policy.
  const AdoptOutcome o = make().adopt(r, id);
  EXPECT_FALSE(o.alive);
  ASSERT_TRUE(o.exit.has_value());
  EXPECT_EQ(o.exit->kind, ExitKind::kNeverRan);
}

TEST_F(LocalExecutorTest, AdoptsALiveJobAndSeesItFinish) {
  auto first = make();
  const LaunchRequest r = sh(10, "sleep 0.3; echo done");
  auto id = first.launch(r);
  ASSERT_TRUE(id.is_ok());
  ASSERT_TRUE(first.release(r.job).is_ok());
  auto second = make();  // a restarted daemon
  const AdoptOutcome o = second.adopt(r, *id);
  EXPECT_TRUE(o.alive);
  const JobExit e = wait_exit(second);
  EXPECT_EQ(e.kind, ExitKind::kCompleted);
  EXPECT_EQ(slurp(second.job_dir(r.job) + "/stdout.log"), "done\n");
}

TEST_F(LocalExecutorTest, NeverAdoptsAReusedPid) {
  auto ex = make();
  const auto self = read_proc_stat(getpid());
  ASSERT_TRUE(self.has_value());
  const AdoptOutcome o = ex.adopt(sh(11, "true"), {getpid(), self->start_ticks + 1});
  EXPECT_FALSE(o.alive);
  EXPECT_FALSE(o.exit.has_value());  // gone without a record: the caller requeues or fails it
}

TEST_F(LocalExecutorTest, FindsTheExitOfAJobThatEndedWhileDown) {
  const LaunchRequest r = sh(12, "exit 4");
  ProcessIdentity id;
  {
    auto first = make();
    auto launched = first.launch(r);
    ASSERT_TRUE(launched.is_ok());
    id = *launched;
    ASSERT_TRUE(first.release(r.job).is_ok());
    int status = 0;
    ASSERT_EQ(waitpid(id.pid, &status, 0), id.pid);
  }
  auto second = make();
  const AdoptOutcome o = second.adopt(r, id);
  EXPECT_FALSE(o.alive);
  ASSERT_TRUE(o.exit.has_value());
  EXPECT_EQ(o.exit->kind, ExitKind::kFailed);
  EXPECT_EQ(o.exit->exit_code, 4);
}

TEST(ProcStat, ParsesCommandNamesWithSpacesAndParentheses) {
  const auto st = parse_proc_stat(
      "42 (my (odd) name) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 50");
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->state, 'S');
  EXPECT_EQ(st->start_ticks, 987654u);
  EXPECT_FALSE(parse_proc_stat("garbage").has_value());
}

TEST_F(LocalExecutorTest, JobEnvCannotOverrideItsGpusOrId) {
  auto ex = make();
  LaunchRequest r = sh(20, "env | grep -c '^CUDA_VISIBLE_DEVICES='; echo \"$CUDA_VISIBLE_DEVICES $BOREAS_JOB_ID $SEED\"",
                       {1});
  r.env = {"CUDA_VISIBLE_DEVICES=0,1,2,3", "BOREAS_JOB_ID=99", "NVIDIA_VISIBLE_DEVICES=all", "SEED=7"};
  start(ex, r);
  EXPECT_EQ(wait_exit(ex).kind, ExitKind::kCompleted);
  // One CUDA_VISIBLE_DEVICES (a duplicate would let getenv pick either), the allocation's value.
  EXPECT_EQ(slurp(ex.job_dir(JobId(20)) + "/stdout.log"), "1\n1 20 7\n");
}

bool alive(const std::string& pid_text) {
  const int32_t pid = std::stoi(pid_text);
  const auto st = read_proc_stat(pid);
  return st && st->state != 'Z';
}

TEST_F(LocalExecutorTest, CancelKillsAChildThatLeftTheSessionWithSetsid) {
  auto ex = make();
  start(ex, sh(21, "setsid sh -c 'echo $$ > " + file("escaped") + "; exec sleep 300' & "
                   "while [ ! -s " + file("escaped") + " ]; do sleep 0.01; done; touch " + file("ready") +
                   "; sleep 300"));
  wait_for_file("ready");
  const std::string escaped = slurp(file("escaped"));
  ASSERT_TRUE(alive(escaped));
  ASSERT_TRUE(ex.cancel(JobId(21)).is_ok());
  EXPECT_EQ(wait_exit(ex).kind, ExitKind::kCancelled);
  EXPECT_FALSE(alive(escaped)) << "the setsid child " << escaped << " survived cancel";
}

TEST_F(LocalExecutorTest, WhatAJobLeavesRunningDiesWithIt) {
  auto ex = make();
  start(ex, sh(22, "setsid sh -c 'echo $$ > " + file("daemon") + "; exec sleep 300' & "
                   "while [ ! -s " + file("daemon") + " ]; do sleep 0.01; done; exit 0"));
  EXPECT_EQ(wait_exit(ex).kind, ExitKind::kCompleted);
  const std::string daemon = slurp(file("daemon"));
  EXPECT_FALSE(alive(daemon)) << "process " << daemon << " outlived its job";
}

TEST(JobProcesses, FindsDescendantsOutsideTheSession) {
  // A fake leader: this test's child in its own session, with a grandchild in yet another one.
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t leader = fork();
  if (leader == 0) {
    setsid();
    if (fork() == 0) {
      setsid();
      (void)!write(ready[1], "x", 1);
      pause();
      _exit(0);
    }
    pause();
    _exit(0);
  }
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  const auto members = job_processes(leader);
  EXPECT_EQ(members.size(), 1u);  // the grandchild; the leader itself is left out
  for (int32_t pid : members) {
    EXPECT_EQ(read_proc_stat(pid)->ppid, leader);
    kill(pid, SIGKILL);
  }
  kill(leader, SIGKILL);
  waitpid(leader, nullptr, 0);
  close(ready[0]);
  close(ready[1]);
}

TEST(ProcStat, ReadsParentGroupAndSession) {
  const auto st = parse_proc_stat("42 (a b) c) S 7 8 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1234 0");
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->ppid, 7);
  EXPECT_EQ(st->pgrp, 8);
  EXPECT_EQ(st->session, 9);
  EXPECT_EQ(st->start_ticks, 1234u);
}

TEST(ExitStatus, AFifoOrLinkInTheJobDirectoryIsNotRead) {
  TempDir dir;
  const std::string fifo = dir.path() + "/exit";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(read_exit_status(fifo).has_value());  // and it returns at once instead of blocking
  const std::string target = dir.path() + "/real";
  std::ofstream(target) << "0";
  const std::string link = dir.path() + "/link";
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  EXPECT_FALSE(read_exit_status(link).has_value());
  EXPECT_EQ(read_exit_status(target), 0);
}

TEST(ReservedEnv, GpuVariablesAndBoreasPrefix) {
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                           "HIP_VISIBLE_DEVICES", "BOREAS_JOB_ID", "BOREAS_X"}) {
    EXPECT_TRUE(is_reserved_env(name)) << name;
  }
  for (const char* name : {"CUDA_HOME", "SEED", "BOREAS", "MY_BOREAS_X", "cuda_visible_devices"}) {
    EXPECT_FALSE(is_reserved_env(name)) << name;
  }
}

}  // namespace
}  // namespace boreas::server
