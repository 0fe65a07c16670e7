// The controller's long-lived state and its history in the store, driven through a scripted
// executor and a hand-set clock: deterministic, and no processes.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "server/driver/controller.h"
#include "server/jobs/job_records.h"
#include "server/testing/test_cluster.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

// Jobs "run" until the test ends them; cancel and preempt end them at the next poll.
class ScriptedExecutor : public Executor {
 public:
  explicit ScriptedExecutor(std::set<uint32_t> alive = {}) : alive_(std::move(alive)) {}
  Result<ProcessIdentity> launch(const LaunchRequest& req) override {
    std::lock_guard lock(mu_);
    alive_.insert(req.job.value());
    return ProcessIdentity{static_cast<int32_t>(100000 + req.job.value()), 1};
  }
  Status release(JobId) override { return Status::ok(); }
  Status abort(JobId job) override { return end(job, ExitKind::kNeverRan, -1); }
  AdoptOutcome adopt(const LaunchRequest& req, ProcessIdentity) override {
    std::lock_guard lock(mu_);
    return {alive_.count(req.job.value()) > 0, std::nullopt};
  }
  Status cancel(JobId job) override { return end(job, ExitKind::kCancelled, 143); }
  Status preempt(JobId job) override { return end(job, ExitKind::kPreempted, 0); }
  std::vector<JobExit> poll(Time) override {
    std::lock_guard lock(mu_);
    return std::exchange(exits_, {});
  }
  size_t running() const override {
    std::lock_guard lock(mu_);
    return alive_.size();
  }
  Status end(JobId job, ExitKind kind, int32_t code) {
    std::lock_guard lock(mu_);
    if (alive_.erase(job.value()) > 0) {
      exits_.push_back({job, kind, code});
    }
    return Status::ok();
  }
  std::set<uint32_t> alive() const {
    std::lock_guard lock(mu_);
    return alive_;
  }

 private:
  mutable std::mutex mu_;
  std::set<uint32_t> alive_;
  std::vector<JobExit> exits_;
};

class ControllerStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::open(dir_.path() + "/boreas.db", {0, false});  // no fsync: durability is not tested here
    ASSERT_TRUE(s.is_ok()) << s.status().message();
    store_ = std::move(*s);
  }
  std::unique_ptr<Controller> make(Executor& ex, Duration poll = Duration::millis(1)) {
    auto c = std::make_unique<Controller>(ControllerConfig{cluster_, test_scheduler(), std::nullopt, poll, clock()},
                                          *store_, ex, metrics_);
    c->set_retention(retention_);
    EXPECT_TRUE(c->recover().is_ok());
    c->start();
    return c;
  }
  std::function<Time()> clock() {
    return [this] { return Time::from_micros(now_us_.load()); };
  }
  // Two rounds: exits the executor reported by the first are applied before the second returns.
  static void settle(Controller& c) {
    c.run_round();
    c.run_round();
  }
  JobId submit(Controller& c, uint32_t gpus, bool restart = false) {
    SubmitRequest r;
    r.command = {"true"};
    r.gpus = gpus;
    r.restart = {restart, 1};
    auto j = c.submit("alice", r);
    EXPECT_TRUE(j.is_ok()) << j.status().message();
    return j.is_ok() ? j->id : JobId();
  }
  // Ended jobs leave memory once their last row is durable (an fsync away).
  static void wait_memory_holds(Controller& c, size_t count) {
    for (int i = 0; i < 500 && c.jobs().size() != count; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // The counts migration 9's triggers keep equal a count of the rows.
  void expect_counts_match_rows() {
    auto kept = count_ended_jobs(*store_);
    auto rows = store_->query({"SELECT state, queue, COUNT(*) FROM jobs WHERE state IN "
                               "('completed', 'failed', 'cancelled') GROUP BY state, queue", {}});
    ASSERT_TRUE(kept.is_ok() && rows.is_ok());
    EndedCounts counted;
    for (const SqlRow& r : *rows) {
      counted[{as_text(r[0]), as_text(r[1])}] = as_int(r[2]);
    }
    EXPECT_EQ(*kept, counted);
  }
  std::vector<uint32_t> ids(const JobPage& p) {
    std::vector<uint32_t> out;
    for (const LiveJob& j : p.jobs) {
      out.push_back(j.id.value());
    }
    return out;
  }

  TempDir dir_;
  Cluster cluster_ = test_cluster(3, 4);
  std::unique_ptr<Store> store_;
  MetricsRegistry metrics_;
  Retention retention_;
  std::atomic<int64_t> now_us_{1'700'000'000'000'000};
};

// The property of issue 17: after any sequence of submits, exits (completed, failed and
// restarted, preempted), cancels and drains, the state kept by events equals the state a
// controller rebuilds from the store alone. 400 seeded random events, compared every 10.
TEST_F(ControllerStateTest, IncrementalStateEqualsTheStateRebuiltFromTheStore) {
  ScriptedExecutor ex;
  auto live = make(ex);
  std::mt19937 rng(17);
  const auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  std::map<std::string, int> done;
  uint32_t last = 0;
  for (int step = 0; step < 400; ++step) {
    const std::set<uint32_t> alive = ex.alive();
    const std::vector<uint32_t> running(alive.begin(), alive.end());
    const uint32_t victim = running.empty() ? 0 : running[pick(running.size())];
    const std::vector<ExitKind> ends = {ExitKind::kCompleted, ExitKind::kFailed, ExitKind::kPreempted};
    switch (pick(6)) {
      case 0:
      case 1:
        last = submit(*live, std::vector<uint32_t>{0, 1, 2, 4}[pick(4)], pick(2) == 0).value();
        done["submit"] += 1;
        break;
      case 2:
      case 3:
        if (victim != 0) {
          const ExitKind kind = ends[pick(ends.size())];
          (void)ex.end(JobId(victim), kind, kind == ExitKind::kFailed ? 1 : 0);
          done[std::string(to_string(kind))] += 1;
        }
        break;
      case 4:
        if (last > 0) {
          done["cancel"] += live->cancel("alice", JobId(1 + static_cast<uint32_t>(pick(last)))).is_ok() ? 1 : 0;
        }
        break;
      default: {
        const std::string node = cluster_.nodes[pick(cluster_.nodes.size())].name;
        ASSERT_TRUE(live->set_drained("admin", node, pick(2) == 0).is_ok());
        done["drain"] += 1;
      }
    }
    now_us_ += static_cast<int64_t>(pick(5000));
    settle(*live);
    if (step % 10 != 9) {
      continue;
    }
    ASSERT_TRUE(store_->write_sync({}).is_ok());  // every write queued so far is durable
    ScriptedExecutor same(ex.alive());
    MetricsRegistry other;
    Controller rebuilt(ControllerConfig{cluster_, test_scheduler(), std::nullopt, Duration::hours(1), clock()},
                       *store_, same, other);
    ASSERT_TRUE(rebuilt.recover().is_ok());
    rebuilt.start();  // no round runs before the digest: the loop waits an hour for a task
    const std::string want = rebuilt.state_digest();
    ASSERT_EQ(live->state_digest(), want) << "after step " << step;
    EXPECT_EQ(want.find("invariants"), std::string::npos) << want;
    expect_counts_match_rows();
  }
  for (const char* event : {"submit", "completed", "failed", "preempted", "cancel", "drain"}) {
    EXPECT_GE(done[event], 10) << event << " happened too rarely to test anything";
  }
}

// The slot table starts at 256 slots and doubles: 700 jobs make it grow twice, with jobs running
// and pending and a drained node, and the state stays what the store says.
TEST_F(ControllerStateTest, TheStateGrowsWithoutLosingAJob) {
  ScriptedExecutor ex;
  auto live = make(ex);
  ASSERT_TRUE(live->set_drained("admin", cluster_.nodes[1].name, true).is_ok());
  for (int i = 0; i < 700; ++i) {
    submit(*live, i % 7 == 0 ? 2 : 0);
  }
  settle(*live);
  ASSERT_TRUE(store_->write_sync({}).is_ok());
  ScriptedExecutor same(ex.alive());
  MetricsRegistry other;
  Controller rebuilt(ControllerConfig{cluster_, test_scheduler(), std::nullopt, Duration::hours(1), clock()},
                     *store_, same, other);
  ASSERT_TRUE(rebuilt.recover().is_ok());
  rebuilt.start();
  const std::string want = rebuilt.state_digest();
  const std::string got = live->state_digest();
  const auto differ = std::mismatch(got.begin(), got.end(), want.begin(), want.end());
  EXPECT_TRUE(got == want) << "first difference at: " << std::string(differ.first, std::min(differ.first + 120, got.end()));
  EXPECT_EQ(std::count(want.begin(), want.end(), '\n'), 3 + 700 + 1) << "a line per node, per job, and pending";
  EXPECT_EQ(want.find("invariants"), std::string::npos) << want.substr(0, 200);
}

// A drain cordons the node in the state: the job on it runs on, the GPUs it frees stay out of
// every placement (a pending job of the same size waits), and a resume gives them back.
TEST_F(ControllerStateTest, ADrainedNodeKeepsItsJobAndGivesNothingBackUntilResumed) {
  ScriptedExecutor ex;
  auto c = make(ex);
  for (size_t n : {1u, 2u}) {
    ASSERT_TRUE(c->set_drained("admin", cluster_.nodes[n].name, true).is_ok());
  }
  const JobId first = submit(*c, 4);
  settle(*c);
  ASSERT_TRUE(c->set_drained("admin", cluster_.nodes[0].name, true).is_ok());
  const JobId second = submit(*c, 4);
  settle(*c);
  std::string digest = c->state_digest();
  EXPECT_NE(digest.find("node 0 free 0 cordoned\n"), std::string::npos) << digest;
  EXPECT_NE(digest.find("job 1 running gpus 0 1 2 3 "), std::string::npos) << digest;
  EXPECT_EQ(c->nodes()[0].gpu_jobs, (std::vector<uint32_t>{1, 1, 1, 1}));
  (void)ex.end(first, ExitKind::kCompleted, 0);
  settle(*c);
  digest = c->state_digest();
  EXPECT_NE(digest.find("node 0 free 0 cordoned\n"), std::string::npos) << digest;
  EXPECT_NE(digest.find("job 2 pending gpus work"), std::string::npos) << digest;
  EXPECT_EQ(c->job(second)->reason, "no fit: needs 4 GPUs on one undrained node; the most free now is 0");
  const NodeView node0 = c->nodes()[0];
  EXPECT_EQ(node0.gpu_jobs, (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_EQ(node0.free_gpus, 4u);  // unheld, though drained
  ASSERT_TRUE(c->set_drained("admin", cluster_.nodes[0].name, false).is_ok());
  settle(*c);
  digest = c->state_digest();
  EXPECT_NE(digest.find("job 2 running gpus 0 1 2 3 "), std::string::npos) << digest;
  EXPECT_NE(digest.find("node 0 free 0\n"), std::string::npos) << digest;
  EXPECT_NE(digest.find("node 1 free 0 cordoned\n"), std::string::npos) << digest;
  EXPECT_EQ(digest.find("invariants"), std::string::npos) << digest;
}

// A round writes one reason text per (GPU count, type) and reuses it for every pending job of that
// shape; the next round writes them again from the GPUs free then. fifo: strict order.
TEST_F(ControllerStateTest, PendingReasonsFollowEachJobsShapeRoundAfterRound) {
  ScriptedExecutor ex;
  auto c = make(ex);
  const JobId busy = submit(*c, 4);
  submit(*c, 4);
  submit(*c, 4);
  settle(*c);
  const JobId two = submit(*c, 2);
  const JobId four = submit(*c, 4);
  SubmitRequest r;
  r.command = {"true"};
  r.gpus = 2;
  r.gpu_type = "H100";
  const JobId typed = c->submit("alice", r)->id;
  settle(*c);
  EXPECT_EQ(c->job(two)->reason, "no fit: needs 2 GPUs on one undrained node; the most free now is 0");
  EXPECT_EQ(c->job(four)->reason, "no fit: needs 4 GPUs on one undrained node; the most free now is 0");
  EXPECT_EQ(c->job(typed)->reason,
            "no fit: needs 2 GPUs on one undrained node of type H100; the most free now is 0");
  (void)ex.end(busy, ExitKind::kCompleted, 0);
  settle(*c);  // `two` takes half the freed node; `four` blocks the queue
  EXPECT_EQ(c->job(two)->state, JobState::kRunning);
  EXPECT_EQ(c->job(four)->reason, "no fit: needs 4 GPUs on one undrained node; the most free now is 2");
  EXPECT_EQ(c->job(typed)->reason, "waiting: the fifo policy starts other jobs first");
}

TEST_F(ControllerStateTest, ListPagesJobsInMemoryAndEndedOnesFromTheStoreById) {
  ScriptedExecutor ex;
  auto c = make(ex);
  for (int i = 0; i < 5; ++i) {
    submit(*c, 0);
  }
  settle(*c);
  ASSERT_EQ(ex.alive().size(), 5u);
  for (uint32_t id : {1u, 2u, 4u}) {
    (void)ex.end(JobId(id), ExitKind::kCompleted, 0);
  }
  settle(*c);
  wait_memory_holds(*c, 2);
  std::vector<uint32_t> in_memory;
  std::string states;
  for (const LiveJob& j : c->jobs()) {
    in_memory.push_back(j.id.value());
    states += std::string(to_string(j.state)) + " ";
  }
  EXPECT_EQ(in_memory, (std::vector<uint32_t>{3, 5})) << states;
  auto p1 = c->list({"", "", "", 0, 2});
  ASSERT_TRUE(p1.is_ok()) << p1.status().message();
  EXPECT_EQ(ids(*p1), (std::vector<uint32_t>{1, 2}));
  EXPECT_TRUE(p1->more);
  auto p2 = c->list({"", "", "", 2, 2});
  EXPECT_EQ(ids(*p2), (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(p2->jobs[0].state, JobState::kRunning);
  EXPECT_EQ(p2->jobs[1].state, JobState::kCompleted);
  auto p3 = c->list({"", "", "", 4, 2});
  EXPECT_EQ(ids(*p3), (std::vector<uint32_t>{5}));
  EXPECT_FALSE(p3->more);
  EXPECT_EQ(ids(*c->list({"completed", "", "", 0, 10})), (std::vector<uint32_t>{1, 2, 4}));
  EXPECT_EQ(ids(*c->list({"running", "", "", 0, 10})), (std::vector<uint32_t>{3, 5}));
  EXPECT_EQ(c->job(JobId(2))->state, JobState::kCompleted);  // from the store
  EXPECT_EQ(c->cancel("alice", JobId(2)).status().code(), ErrorCode::kConflict);
  EXPECT_EQ(c->job(JobId(9)).status().code(), ErrorCode::kNotFound);
}

TEST_F(ControllerStateTest, RestartHoldsOnlyJobsNotEndedAndIdsGoOnAfterTheLargest) {
  std::vector<SqlStatement> rows;
  for (uint32_t id = 1; id <= 300; ++id) {
    LiveJob j;
    j.id = JobId(id);
    j.owner = "bob";
    j.request.command = {"true"};
    j.state = JobState::kCompleted;
    rows.push_back(insert_job_row(j));
  }
  LiveJob waiting;
  waiting.id = JobId(301);
  waiting.owner = "bob";
  waiting.request.command = {"true"};
  waiting.request.gpus = 4;
  rows.push_back(insert_job_row(waiting));
  ASSERT_TRUE(store_->write_sync({rows}).is_ok());
  ScriptedExecutor ex;
  auto c = make(ex);
  settle(*c);
  const std::vector<LiveJob> held = c->jobs();
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0].id, JobId(301));
  EXPECT_EQ(held[0].state, JobState::kRunning);
  EXPECT_EQ(c->job(JobId(150))->state, JobState::kCompleted);
  EXPECT_EQ(submit(*c, 0), JobId(302));
}

// A kill -9 between a job's exit and the durable write of it leaves it recorded running on GPUs
// a later launch was given (and recorded). The restart asks the executor first and places only
// the jobs still alive; the other one ends by its restart policy.
TEST_F(ControllerStateTest, RestartPlacesOnlyLiveJobsWhenAStaleRowSharesTheirGpus) {
  std::vector<SqlStatement> rows;
  for (uint32_t id : {1u, 2u}) {
    LiveJob j;
    j.id = JobId(id);
    j.owner = "bob";
    j.request.command = {"true"};
    j.request.gpus = 4;
    j.state = JobState::kRunning;
    j.placement = {{0, {0, 1, 2, 3}}};
    j.process = {static_cast<int32_t>(100000 + id), 1};
    rows.push_back(insert_job_row(j));
    rows.push_back(update_job_row(j, Time::from_micros(now_us_.load())));
  }
  ASSERT_TRUE(store_->write_sync({rows}).is_ok());
  ScriptedExecutor ex({2});  // job 1 ended while the daemon was down; job 2 still runs
  auto c = make(ex);
  settle(*c);
  EXPECT_EQ(c->job(JobId(1))->state, JobState::kFailed);
  EXPECT_EQ(c->job(JobId(2))->state, JobState::kRunning);
  const std::string digest = c->state_digest();
  EXPECT_NE(digest.find("node 0 free 0\n"), std::string::npos) << digest;
  EXPECT_NE(digest.find("job 2 running gpus 0 1 2 3 "), std::string::npos) << digest;
  EXPECT_EQ(digest.find("invariants"), std::string::npos) << digest;
}

// Jobs that ended more than --retain-days ago leave the store and their directories go; newer
// ones stay.
TEST_F(ControllerStateTest, RetentionPrunesOldEndedJobsAndTheirDirectories) {
  retention_ = {Duration::hours(24), dir_.path() + "/jobs"};
  ScriptedExecutor ex;
  auto c = make(ex);
  const JobId old = submit(*c, 1);
  const JobId recent = submit(*c, 1);
  const JobId running = submit(*c, 1);
  settle(*c);
  for (JobId id : {old, recent, running}) {
    std::filesystem::create_directories(dir_.path() + "/jobs/" + std::to_string(id.value()));
  }
  (void)ex.end(old, ExitKind::kCompleted, 0);
  settle(*c);
  wait_memory_holds(*c, 2);
  now_us_ += Duration::hours(25).us();
  (void)ex.end(recent, ExitKind::kFailed, 1);
  settle(*c);
  EXPECT_EQ(c->job(old).status().code(), ErrorCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/jobs/" + std::to_string(old.value())));
  EXPECT_EQ(c->job(recent)->state, JobState::kFailed);
  EXPECT_TRUE(std::filesystem::exists(dir_.path() + "/jobs/" + std::to_string(recent.value())));
  EXPECT_EQ(c->job(running)->state, JobState::kRunning);
  EXPECT_TRUE(std::filesystem::exists(dir_.path() + "/jobs/" + std::to_string(running.value())));
  expect_counts_match_rows();  // a pruned row left the counts too
}

}  // namespace
}  // namespace boreas::server
