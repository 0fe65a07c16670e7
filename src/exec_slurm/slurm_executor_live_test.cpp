// The Slurm executor against the fixture cluster (tests/slurm/cluster.sh: n1..n4, 8 fake h100
// each; ctest starts it and sets SLURM_CONF and LAB): a 2-node gang, preemption with a
// checkpoint signal and resume elsewhere, a node failure turned into a re-placement, time limits,
// and Slurm's start (not the release) as the job's.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "exec_slurm/slurm_executor.h"

namespace boreas::exec_slurm {
namespace {

using server::ExitKind;
using server::JobExit;
using server::LaunchRequest;

Time wall() {
  return Time::from_micros(std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count());
}

class SlurmExecutorLive : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* lab = std::getenv("LAB");
    ASSERT_TRUE(lab != nullptr && std::getenv("SLURM_CONF") != nullptr)
        << "run through ctest -L slurm (it starts the cluster and sets LAB and SLURM_CONF)";
    dir_ = std::string(lab) + "/executor-test";
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    SlurmExecutorOptions o;
    o.jobs_dir = dir_ + "/jobs";
    o.grace = Duration::millis(500);
    o.poll_every = Duration::millis(50);
    o.allow_root_jobs = true;  // the tests run as root (the fixture needs it), their jobs too
    for (const char* n : {"n1", "n2", "n3", "n4"}) {
      o.nodes[std::string("spec-") + n] = {n, "h100"};
    }
    exec_ = std::make_unique<SlurmExecutor>(std::move(o));
  }

  LaunchRequest request(uint32_t id, std::vector<std::string> argv, std::vector<std::string> nodes,
                        uint32_t gpus) const {
    LaunchRequest r;
    r.job = JobId(id);
    r.argv = std::move(argv);
    for (const auto& n : nodes) {
      std::vector<uint32_t> idx;
      for (uint32_t g = 0; g < gpus; ++g) {
        idx.push_back(g);
      }
      r.placement.push_back({"spec-" + n, idx});
    }
    return r;
  }

  uint64_t launch(const LaunchRequest& r) {
    auto id = exec_->launch(r);
    EXPECT_TRUE(id.is_ok()) << id.status().message();
    EXPECT_TRUE(exec_->release(r.job).is_ok());
    return id.is_ok() ? static_cast<uint64_t>(id->pid) : 0;
  }

  slurm::SlurmJob wait_running(uint64_t sid) const {
    slurm::SlurmJob j;
    for (int i = 0; i < 200; ++i) {
      auto got = client_.job(sid);
      if (got.is_ok() && got->state == "RUNNING") {
        return *got;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "Slurm job " << sid << " never ran";
    return j;
  }

  std::optional<JobExit> wait_exit(JobId job) {
    for (int i = 0; i < 300; ++i) {
      for (const JobExit& e : exec_->poll(wall())) {
        if (e.job == job) {
          return e;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return std::nullopt;
  }

  std::string dir_;
  std::unique_ptr<SlurmExecutor> exec_;
  slurm::Client client_{slurm::ClientOptions{}};
};

TEST_F(SlurmExecutorLive, TwoNodeGangIsOneSlurmJob) {
  const LaunchRequest r = request(101, {"sh", "-c", "sleep 0.5"}, {"n2", "n3"}, 4);
  auto sub = exec_->submit_request(r);
  ASSERT_TRUE(sub.is_ok());
  EXPECT_EQ(sub->nodes, 2u);
  EXPECT_EQ(sub->gpus_per_node, 4u);
  const slurm::SlurmJob run = wait_running(launch(r));
  EXPECT_EQ(run.nodes, (std::vector<std::string>{"n2", "n3"}));
  ASSERT_EQ(run.gpu_indexes.size(), 2u);
  EXPECT_EQ(run.gpu_indexes[0].size(), 4u);
  EXPECT_EQ(run.comment, "boreas:101");
  const auto exit = wait_exit(JobId(101));
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->kind, ExitKind::kCompleted);
  EXPECT_EQ(exec_->running(), 0u);
}

// Preempt: USR1 reaches the job (it writes a checkpoint), the grace ends it, the exit is
// kPreempted; launched again on another node it resumes from the checkpoint.
TEST_F(SlurmExecutorLive, PreemptCheckpointAndResumeElsewhere) {
  const std::string ckpt = dir_ + "/ckpt";
  const std::string script = "[ -f " + ckpt + " ] && { echo resumed-$(cat " + ckpt + ") > " + dir_ +
                             "/result; exit 0; }; trap 'echo 7 > " + ckpt +
                             "; exit 0' USR1; for i in $(seq 600); do sleep 0.1; done";
  const uint64_t first = launch(request(102, {"bash", "-c", script}, {"n1"}, 2));
  EXPECT_EQ(wait_running(first).nodes, std::vector<std::string>{"n1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the trap is set
  ASSERT_TRUE(exec_->preempt(JobId(102)).is_ok());
  const auto exit = wait_exit(JobId(102));
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->kind, ExitKind::kPreempted);
  std::ifstream in(ckpt);
  std::string saved;
  in >> saved;
  EXPECT_EQ(saved, "7") << "the checkpoint signal did not reach the job";
  const uint64_t second = launch(request(102, {"bash", "-c", script}, {"n4"}, 2));
  EXPECT_NE(second, first);
  const auto done = wait_exit(JobId(102));
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->kind, ExitKind::kCompleted);
  std::ifstream result(dir_ + "/result");
  std::string text;
  result >> text;
  EXPECT_EQ(text, "resumed-7");
}

// A node Slurm marks DOWN under a running job: Slurm requeues it, the executor hands it back to
// Boreas (kPreempted) to be placed again, and the node is out of service until resumed.
TEST_F(SlurmExecutorLive, NodeFailureHandsTheJobBack) {
  const uint64_t sid = launch(request(103, {"sleep", "60"}, {"n3"}, 1));
  wait_running(sid);
  ASSERT_TRUE(client_.drain("n3", "unused").is_ok());  // keep Slurm from restarting it there
  const std::vector<std::string> down{"scontrol", "update", "NodeName=n3", "State=DOWN",
                                      "Reason=test failure"};
  ASSERT_EQ(slurm::run_command(down, {})->exit_code, 0);
  const auto exit = wait_exit(JobId(103));
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->kind, ExitKind::kPreempted);
  auto nodes = client_.nodes();
  ASSERT_TRUE(nodes.is_ok());
  for (const auto& n : *nodes) {
    if (n.name == "n3") {
      EXPECT_FALSE(n.in_service());
    }
  }
  ASSERT_TRUE(client_.resume("n3").is_ok());
  auto after = client_.job(sid);
  ASSERT_TRUE(after.is_ok());
  EXPECT_TRUE(after->finished()) << "the requeued Slurm job was left behind: " << after->state;
}

// A daemon killed between sbatch and its durable write leaves a held "boreas:ID" job that no
// adopt claims; the first poll cancels it (it never ran), and leaves other held jobs alone.
TEST_F(SlurmExecutorLive, FirstPollCancelsUnrecordedHeldJobs) {
  slurm::SubmitRequest r;
  r.argv = {"true"};
  r.comment = "boreas:4242";
  r.output = dir_ + "/orphan.out";
  auto orphan = client_.submit(r);
  r.comment = "someone else";
  auto other = client_.submit(r);
  ASSERT_TRUE(orphan.is_ok() && other.is_ok());
  (void)exec_->poll(wall());
  EXPECT_EQ(client_.job(*orphan)->state, "CANCELLED");
  EXPECT_TRUE(client_.job(*other)->held());
  ASSERT_TRUE(client_.cancel(*other).is_ok());
}

// Boreas ends a job at its time limit to the second (Slurm's --time would wait a whole minute).
TEST_F(SlurmExecutorLive, TimeLimitEndsTheJob) {
  LaunchRequest r = request(105, {"sleep", "60"}, {"n2"}, 1);
  r.time_limit = Duration::seconds(1);
  r.started = wall();
  wait_running(launch(r));
  const auto exit = wait_exit(JobId(105));
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->kind, ExitKind::kTimedOut);
  EXPECT_LT(wall() - r.started, Duration::seconds(10));
}

// A job Slurm keeps pending after its release (a job outside Boreas holds every GPU of n2): the
// start reported is Slurm's, once it runs, not the release; its 1 s time limit counts from there,
// so the 2 s it waited do not time it out; its exit carries Slurm's start and end.
TEST_F(SlurmExecutorLive, SlurmsStartIsTheJobsAndItsLimitCountsFromThere) {
  slurm::SubmitRequest busy;
  busy.argv = {"sleep", "60"};
  busy.node_list = {"n2"};
  busy.gpus_per_node = 8;
  busy.gpu_type = "h100";
  busy.output = "/dev/null";
  busy.hold = false;
  auto foreign = client_.submit(busy);
  ASSERT_TRUE(foreign.is_ok()) << foreign.status().message();
  wait_running(*foreign);
  LaunchRequest r = request(106, {"sleep", "60"}, {"n2"}, 1);
  r.time_limit = Duration::seconds(1);
  r.started = wall();
  const uint64_t sid = launch(r);
  const Time held_until = r.started + Duration::seconds(2);
  while (wall() < held_until) {
    for (const JobExit& e : exec_->poll(wall())) {
      ADD_FAILURE() << "ended (" << server::to_string(e.kind) << ") while Slurm kept it pending";
    }
    EXPECT_TRUE(exec_->started().empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(client_.cancel(*foreign).is_ok());
  const slurm::SlurmJob ran = wait_running(sid);
  std::vector<server::JobStart> starts;
  for (int i = 0; i < 100 && starts.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(exec_->poll(wall()).empty());
    starts = exec_->started();
  }
  ASSERT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts[0].job, JobId(106));
  EXPECT_EQ(starts[0].at, Time::from_seconds(ran.start_time));
  EXPECT_GE(starts[0].at, Time::from_seconds(held_until.us() / 1'000'000));  // not the release
  std::this_thread::sleep_for(std::chrono::milliseconds(60));  // past poll_every: a real poll
  // This poll may already end the job: its limit counts from Slurm's start, which a loaded machine
  // observes late (the exit, returned once, was dropped here and the wait below never saw it).
  std::optional<JobExit> exit;
  for (const JobExit& e : exec_->poll(wall())) {
    if (e.job == JobId(106)) {
      exit = e;
    }
  }
  EXPECT_TRUE(exec_->started().empty());  // reported once
  if (!exit) {
    exit = wait_exit(JobId(106));
  }
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->kind, ExitKind::kTimedOut);
  ASSERT_TRUE(exit->started.has_value() && exit->ended.has_value());
  EXPECT_EQ(*exit->started, starts[0].at);
  EXPECT_GE(*exit->ended, *exit->started + Duration::seconds(1));
  EXPECT_LT(*exit->ended, *exit->started + Duration::seconds(50));  // cut short, not its own 60 s
}

// A job slurmctld no longer lists (forgotten after MinJobAge while the daemon was down; no
// slurmdbd to ask) ends as its exit file says: the batch script wrote the command's exit code.
// Without the file it is lost; a relaunch starts without the earlier attempt's file.
TEST_F(SlurmExecutorLive, AForgottenJobEndsAsItsExitFileSays) {
  const LaunchRequest r = request(107, {"sh", "-c", "exit 3"}, {"n1"}, 1);
  launch(r);
  const auto exit = wait_exit(JobId(107));
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->kind, ExitKind::kFailed);
  const std::string file = dir_ + "/jobs/107/slurm-exit";
  std::ifstream in(file);
  int code = -1;
  in >> code;
  EXPECT_EQ(code, 3);
  // A restarted daemon adopts a Slurm job id slurmctld does not know (as after MinJobAge).
  const server::ProcessIdentity forgotten{9'999'999, 0};
  const server::AdoptOutcome gone = exec_->adopt(r, forgotten);
  EXPECT_FALSE(gone.alive);
  ASSERT_TRUE(gone.exit.has_value());
  EXPECT_EQ(gone.exit->kind, ExitKind::kFailed);
  EXPECT_EQ(gone.exit->exit_code, 3);
  EXPECT_TRUE(gone.exit->ended.has_value());
  std::filesystem::remove(file);
  EXPECT_EQ(exec_->adopt(r, forgotten).exit->kind, ExitKind::kLost);
  std::ofstream(file) << "0\n";
  launch(request(107, {"sleep", "30"}, {"n1"}, 1));
  EXPECT_FALSE(std::filesystem::exists(file));
  ASSERT_TRUE(exec_->cancel(JobId(107)).is_ok());
  ASSERT_TRUE(wait_exit(JobId(107)).has_value());
  EXPECT_FALSE(std::filesystem::exists(file)) << "a cancelled command writes no exit file";
}

TEST_F(SlurmExecutorLive, UnknownNodeIsRefused) {
  LaunchRequest r = request(104, {"true"}, {"n1"}, 1);
  r.placement[0].node = "elsewhere";
  auto id = exec_->launch(r);
  ASSERT_FALSE(id.is_ok());
  EXPECT_NE(id.status().message().find("node 'elsewhere' of job 104 is not a Slurm node"), std::string::npos);
}

}  // namespace
}  // namespace boreas::exec_slurm
