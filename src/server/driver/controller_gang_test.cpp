// Gangs across nodes and waits in the executor, through the controller with a fake executor shaped
// like Slurm's (spans nodes, keeps released jobs pending with a reason). The real Slurm runs the
// same paths in tests/slurm/serve_gang.sh.

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "server/driver/controller.h"
#include "server/jobs/gang_shape.h"
#include "server/jobs/job_json.h"
#include "server/jobs/job_records.h"
#include "server/testing/test_cluster.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

// Records launches; a test decides exits and waits, which the next poll hands back.
class FakeSpanningExecutor final : public Executor {
 public:
  explicit FakeSpanningExecutor(bool spans) : spans_(spans) {}
  Result<ProcessIdentity> launch(const LaunchRequest& req) override {
    std::lock_guard lock(mu_);
    launched_.push_back(req);
    return ProcessIdentity{static_cast<int32_t>(1000 + launched_.size()), 0};
  }
  Status release(JobId) override { return Status::ok(); }
  Status abort(JobId) override { return Status::ok(); }
  AdoptOutcome adopt(const LaunchRequest&, ProcessIdentity) override { return {true, std::nullopt}; }
  Status cancel(JobId job) override { return end(job, ExitKind::kCancelled, 143); }
  Status preempt(JobId) override { return Status::ok(); }
  std::vector<JobExit> poll(Time) override {
    std::lock_guard lock(mu_);
    return std::exchange(exits_, {});
  }
  size_t running() const override { return 0; }
  bool spans_nodes() const override { return spans_; }
  std::vector<JobWait> waiting() const override {
    std::lock_guard lock(mu_);
    return waits_;
  }
  std::vector<JobStart> started() const override {
    std::lock_guard lock(mu_);
    return starts_;
  }

  Status end(JobId job, ExitKind kind, int32_t code) {
    std::lock_guard lock(mu_);
    exits_.push_back({job, kind, code});
    return Status::ok();
  }
  void end_at(JobId job, Time started, Time ended) {
    std::lock_guard lock(mu_);
    exits_.push_back({job, ExitKind::kCompleted, 0, started, ended});
  }
  void set_starts(std::vector<JobStart> s) {
    std::lock_guard lock(mu_);
    starts_ = std::move(s);
  }
  void set_waits(std::vector<JobWait> w) {
    std::lock_guard lock(mu_);
    waits_ = std::move(w);
  }
  std::vector<LaunchRequest> launched() const {
    std::lock_guard lock(mu_);
    return launched_;
  }

 private:
  bool spans_;
  mutable std::mutex mu_;
  std::vector<LaunchRequest> launched_;
  std::vector<JobExit> exits_;
  std::vector<JobWait> waits_;
  std::vector<JobStart> starts_;
};

class GangTest : public ::testing::Test {
 protected:
  void open(bool spans) {
    auto s = Store::open(dir_.path() + "/boreas.db");
    ASSERT_TRUE(s.is_ok()) << s.status().message();
    store_ = std::move(*s);
    executor_ = std::make_unique<FakeSpanningExecutor>(spans);
    ctl_ = std::make_unique<Controller>(
        ControllerConfig{test_cluster(4, 8), test_scheduler("fifo"), std::nullopt, Duration::millis(2), wall_clock},
        *store_, *executor_, metrics_);
    ASSERT_TRUE(ctl_->recover().is_ok());
    ctl_->start();
  }
  void restart(bool spans) {
    ctl_.reset();
    executor_.reset();
    store_.reset();
    open(spans);
  }
  // Waits up to 2 s for job `id` to satisfy `ok`.
  LiveJob await(JobId id, const std::function<bool(const LiveJob&)>& ok) {
    for (int i = 0; i < 1000; ++i) {
      auto j = ctl_->job(id);
      if (j.is_ok() && ok(*j)) {
        return *j;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    auto j = ctl_->job(id);
    ADD_FAILURE() << "job " << id.value() << " never got there; state " << to_string(j->state) << ": " << j->reason;
    return *j;
  }
  SubmitRequest gang(uint32_t gpus) {
    SubmitRequest r;
    r.command = {"true"};
    r.gpus = gpus;
    return r;
  }
  uint32_t free_gpus() {
    uint32_t n = 0;
    for (const NodeView& v : ctl_->nodes()) {
      n += v.free_gpus;
    }
    return n;
  }

  TempDir dir_;
  MetricsRegistry metrics_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<FakeSpanningExecutor> executor_;
  std::unique_ptr<Controller> ctl_;
};

const auto running = [](const LiveJob& j) { return j.state == JobState::kRunning; };

// 16 GPUs on 8-GPU nodes: two whole nodes, one launch naming both with 8 GPUs each; shown with
// both nodes; a restart reads both back; at the end every GPU of both nodes is free again.
TEST_F(GangTest, SixteenGpusRunAsOneLaunchOnTwoWholeNodes) {
  open(true);
  auto submitted = ctl_->submit("alice", gang(16));
  ASSERT_TRUE(submitted.is_ok()) << submitted.status().message();
  const LiveJob j = await(submitted->id, running);
  ASSERT_EQ(j.placement.size(), 2u);
  EXPECT_NE(j.placement[0].node, j.placement[1].node);
  EXPECT_EQ(j.placement[0].gpus, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(j.placement[1].gpus, j.placement[0].gpus);
  const auto launched = executor_->launched();
  ASSERT_EQ(launched.size(), 1u);
  ASSERT_EQ(launched[0].placement.size(), 2u);
  EXPECT_EQ(launched[0].placement[0].node, ctl_->node_name(j.placement[0].node));
  EXPECT_EQ(launched[0].placement[1].gpu_indexes.size(), 8u);
  EXPECT_EQ(free_gpus(), 16u);
  const nlohmann::json shown = job_to_json(j, ctl_->node_names(j));
  EXPECT_EQ(shown["node"], ctl_->node_name(j.placement[0].node) + "," + ctl_->node_name(j.placement[1].node));
  ASSERT_EQ(shown["nodes"].size(), 2u);
  EXPECT_EQ(shown["nodes"][1]["node"], ctl_->node_name(j.placement[1].node));
  EXPECT_EQ(shown["nodes"][1]["gpu_indexes"].size(), 8u);
  EXPECT_FALSE(shown.contains("gpu_indexes"));  // per node only, in "nodes"

  restart(true);  // the store's allocation names both nodes: both are held again
  EXPECT_EQ(ctl_->job(j.id)->placement, j.placement);
  EXPECT_EQ(free_gpus(), 16u);
  ASSERT_TRUE(executor_->end(j.id, ExitKind::kCompleted, 0).is_ok());
  await(j.id, [](const LiveJob& x) { return x.state == JobState::kCompleted; });
  EXPECT_EQ(free_gpus(), 32u);
  EXPECT_EQ(ctl_->job(j.id)->placement, j.placement);  // where it ran stays on record
}

// The local executor runs a job on one host: a gang larger than a node is refused at submit, and
// the message says why and what to do. Under Slurm only whole nodes are accepted.
TEST_F(GangTest, GangsLargerThanANodeAreRefusedWhereTheyCanNeverRun) {
  open(false);
  auto local = ctl_->submit("alice", gang(16));
  ASSERT_FALSE(local.is_ok());
  EXPECT_NE(local.status().message().find("local executor runs a job on one node"), std::string::npos)
      << local.status().message();
  EXPECT_NE(local.status().message().find("--executor slurm"), std::string::npos);

  const Cluster c = test_cluster(4, 8);
  EXPECT_TRUE(check_gang_shape(c, 8, "", false).is_ok());
  EXPECT_TRUE(check_gang_shape(c, 32, "", true).is_ok());
  const Status twelve = check_gang_shape(c, 12, "", true);  // 8 + 4: not one Slurm job
  EXPECT_NE(twelve.message().find("ask for a multiple of 8 up to 32"), std::string::npos) << twelve.message();
  EXPECT_FALSE(check_gang_shape(c, 40, "", true).is_ok());  // five nodes of 8; there are four
  EXPECT_FALSE(check_gang_shape(c, 16, "A100", true).is_ok());  // no A100 node at all
}

// A job Slurm keeps pending after Boreas released it: its reason, `why` and the gauge say so, by
// Slurm's own reason; once Slurm runs it, it is "running" again and the gauge is empty.
TEST_F(GangTest, TheExecutorsOwnReasonIsShownWhileItKeepsAJobPending) {
  open(true);
  const JobId id = ctl_->submit("alice", gang(8))->id;
  await(id, running);
  executor_->set_waits({{id, "Slurm", "Resources"}});
  LiveJob j = await(id, [](const LiveJob& x) { return !x.executor_wait.empty(); });
  EXPECT_EQ(j.executor_wait, "Slurm: Resources");
  EXPECT_EQ(j.reason, "started by Boreas; Slurm keeps it pending: Resources");
  EXPECT_EQ(why_json(j)["executor_wait"], "Slurm: Resources");
  ctl_->refresh_metrics();
  EXPECT_NE(metrics_.render().find("boreas_executor_waiting_jobs{executor=\"Slurm\",reason=\"Resources\"} 1"),
            std::string::npos);
  executor_->set_waits({});
  j = await(id, [](const LiveJob& x) { return x.executor_wait.empty(); });
  EXPECT_EQ(j.reason, "running");
  ctl_->refresh_metrics();
  EXPECT_EQ(metrics_.render().find("boreas_executor_waiting_jobs{"), std::string::npos);
}

// The executor's own times (Slurm's start_time and end_time) are the job's: a start later than the
// launch replaces it (an earlier one cannot), is stored and kept by a restart; the exit's end is the
// job's end, and its time run is end - start.
TEST_F(GangTest, TheExecutorsStartAndEndAreTheJobs) {
  open(true);
  const JobId id = ctl_->submit("alice", gang(8))->id;
  const Time launched = await(id, running).start;
  const Time slurm_start = launched + Duration::millis(30);
  executor_->set_starts({{id, launched - Duration::seconds(1)}});  // before its launch: ignored
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(ctl_->job(id)->start, launched);
  executor_->set_starts({{id, slurm_start}});
  await(id, [&](const LiveJob& x) { return x.start == slurm_start; });

  restart(true);  // stored: the adopted job keeps Slurm's start
  EXPECT_EQ(ctl_->job(id)->start, slurm_start);
  const Time slurm_end = slurm_start + Duration::millis(40);
  while (wall_clock() <= slurm_end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  executor_->end_at(id, slurm_start, slurm_end);
  const LiveJob done = await(id, [](const LiveJob& x) { return x.state == JobState::kCompleted; });
  EXPECT_EQ(done.start, slurm_start);
  EXPECT_EQ(done.end, slurm_end);
  EXPECT_EQ(done.ran, Duration::millis(40));
  const nlohmann::json shown = job_to_json(done, ctl_->node_names(done));
  EXPECT_EQ(shown["start_us"], slurm_start.us());
  EXPECT_EQ(shown["end_us"], slurm_end.us());
}

// The store's allocation column: one node reads as before gangs; a gang lists its nodes; text that
// is not an allocation is refused whole (a prefix is never taken for the rest).
TEST(Allocation, EncodesEveryNodeAndRefusesWhatItCannotRead) {
  EXPECT_EQ(encode_allocation({{3, {0, 1}}}), "3:0,1");
  EXPECT_EQ(encode_allocation({{0, {0, 1}}, {2, {4, 5}}}), "0:0,1;2:4,5");
  EXPECT_EQ(encode_allocation({}), "");
  std::vector<JobNode> p;
  ASSERT_TRUE(decode_allocation("0:0,1;2:4,5", p));
  EXPECT_EQ(p, (std::vector<JobNode>{{0, {0, 1}}, {2, {4, 5}}}));
  ASSERT_TRUE(decode_allocation("1:", p));  // a job without GPUs
  EXPECT_EQ(p, (std::vector<JobNode>{{1, {}}}));
  for (const char* bad : {"1", "a:0", "0:1x", "0:1;x", "-1:0", "0:1,,2"}) {
    EXPECT_FALSE(decode_allocation(bad, p)) << bad;
    EXPECT_TRUE(p.empty()) << bad;
  }
}

}  // namespace
}  // namespace boreas::server
