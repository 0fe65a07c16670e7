// The mixed cluster by hand (docs/serving.md, "Mixed cluster"). Two GPUs; one training job of one
// GPU and 100 s in queue `training` (no guarantee: it borrows); the service's queue `serving` is
// guaranteed both GPUs. The service (serving test hardware, serving/test_fixtures.h) costs
// 1.019 s per iteration, cold-starts in 0.84 GB / 0.084 GB/s = 10 s, and its reactive autoscaler
// (target 1 request per replica, 1..2 replicas, every 5 s) starts with one warm replica.
// Requests: two at 4 s (2 output tokens each: done at 6.038 s and 7.057 s) and one at 30 s
// (1 token). Timeline, derived from the rules:
//   0 s    replica 0 and the training job start (one GPU each)
//   5 s    tick: 2 in flight -> 2 replicas: replica 1 asked; no free GPU, so the engine reclaims the
//          borrowed GPU: the training job is preempted at 5 s and replica 1 starts at once (wait 0)
//   10 s   tick: 0 in flight -> 1 replica, but the only active replica is kept (1 is still starting)
//   15 s   replica 1 ready (5 + 10 s cold start); tick: drain the least loaded active replica,
//          replica 0 (tie, lower index); empty, so it stops at 15 s and the training job resumes
//   30 s   the request goes to replica 1: first token at 31.019 s, the run's end
// The training job ran 5 s, waited 10 s, then 95 s: JCT 110 s, one preemption.
#include <gtest/gtest.h>

#include "mixed/mixed.h"
#include "policy/registry.h"
#include "serving/test_fixtures.h"
#include "support/cluster_builder.h"

namespace boreas::mixed {
namespace {

constexpr int64_t kS = 1'000'000;
constexpr int64_t kIteration = 1'019'000;

serving::ServiceSpec hand_service() {
  serving::ServiceSpec s = serving::testing::test_service();
  s.gpu = "TEST";  // the cluster builder's type; the serving side runs on the test hardware
  s.autoscaler.kind = serving::AutoscalerKind::kReactive;
  s.autoscaler.min_replicas = 1;
  s.autoscaler.max_replicas = 2;
  s.autoscaler.interval_s = 5;
  s.autoscaler.target_inflight = 1;
  s.autoscaler.load_gbps = 0.084;
  return s;
}

std::shared_ptr<const QueueTree> hand_queues() {
  auto t = std::make_shared<QueueTree>();
  QueueSpec serving;
  serving.name = "serving";
  GpuQuota quota;
  quota.guaranteed = 2;
  serving.quotas.push_back(quota);
  QueueSpec training;
  training.name = "training";
  t->queues = {serving, training};
  t->parent = {std::nullopt, std::nullopt};
  t->priority_classes = {PriorityClass{"production", 1000, false}};
  return t;
}

struct Hand {
  Cluster cluster = testing::uniform_cluster(1, 1, 2);
  SymbolTable symbols;
  std::vector<JobSpec> training;
  serving::ServiceSpec service = hand_service();
  serving::RequestTrace trace = serving::testing::trace_of(
      {{.arrival_us = 4 * kS, .input_tokens = 1, .output_tokens = 2},
       {.arrival_us = 4 * kS, .input_tokens = 1, .output_tokens = 2},
       {.arrival_us = 30 * kS, .input_tokens = 1, .output_tokens = 1}});
  policy::PolicyRegistry registry;

  Hand() {
    policy::register_baseline(registry);
    JobSpec j;
    j.id = JobId(0);
    j.queue = symbols.intern("training");
    j.gpus = 1;
    j.duration = Duration::seconds(100);
    training.push_back(j);
  }

  Result<MixedRun> run(std::shared_ptr<const QueueTree> queues, const std::string& policy = "boreas") {
    sim::RunRequest req;
    req.cluster = &cluster;
    req.jobs = training;
    req.symbols = &symbols;
    req.policy = policy;
    req.policy_options.tenancy.queues = std::move(queues);
    ServiceSide side;
    side.trace = &trace;
    side.service = &service;
    side.placement = serving::Placement{serving::testing::test_gpu(), 2};
    return run_mixed(registry, req, side);
  }
};

const sim::RunRecord& run_of(const MixedRun& m, uint32_t job, uint32_t run) {
  for (const auto& r : m.engine.result.runs) {
    if (r.job.value() == job && r.run == run) {
      return r;
    }
  }
  ADD_FAILURE() << "no run " << run << " of job " << job;
  return m.engine.result.runs.front();
}

TEST(MixedTest, ReplicaReclaimsTrainingAndGivesItBack) {
  Hand h;
  auto m = h.run(hand_queues());
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  EXPECT_TRUE(m->converged);
  EXPECT_EQ(m->rounds, 2);  // the first round's waits (all 0) are confirmed by the second
  ASSERT_EQ(m->serving.replicas.size(), 2u);
  const auto& r0 = m->serving.replicas[0];
  const auto& r1 = m->serving.replicas[1];
  EXPECT_EQ(r0.asked_us, 0);
  EXPECT_EQ(r0.stop_us, 15 * kS);
  EXPECT_EQ(r1.asked_us, 5 * kS);
  EXPECT_EQ(r1.start_us, 5 * kS);
  EXPECT_EQ(r1.ready_us, 15 * kS);
  EXPECT_EQ(m->replica_wait_us, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(m->serving.outcomes[2].first_token_us, 30 * kS + kIteration);

  const auto& first = run_of(*m, 0, 0);
  EXPECT_EQ(first.start.us(), 0);
  EXPECT_EQ(first.end.us(), 5 * kS);
  EXPECT_EQ(first.end_state, JobState::kPreempted);
  EXPECT_EQ(run_of(*m, 0, 1).start.us(), 15 * kS);
  EXPECT_EQ(run_of(*m, 2, 0).start.us(), 5 * kS);  // replica 1's job: no wait
  EXPECT_EQ(m->engine.summary.jobs, 1u);            // the training side only
  EXPECT_DOUBLE_EQ(m->engine.summary.avg_jct_s, 110);
  EXPECT_EQ(m->engine.summary.preemptions, 1u);
}

// Without a queue tree nothing reclaims the borrowed GPU: replica 1 waits for a GPU to come free,
// and each wait moves the serving side. Round by round (waits of replica 1; replica 0 never waits):
//   1  wait 0:  as above; replica 0 stops at 15 s, so replica 1's job starts at 15 s  -> wait 10 s
//   2  wait 10: ready at 25 s; replica 0 is drained at the 25-s tick                  -> wait 20 s
//   3  wait 20: ready at 35 s, after the 30-s request (replica 0 serves it, done 31.019 s); the
//      35-s tick drains replica 0                                                      -> wait 30 s
//   4  wait 30: ready at 45 s; the ticks stop at 35 s (nothing left), so replica 0 is never
//      drained: it holds its GPU to the run's end, 31.019 s, and replica 1 (given its GPUs after
//      the end: held 0 s) starts in the engine then                                    -> wait 26.019 s
//   5  wait 26.019: the same run as round 4                                            -> converged
// The training job runs through: JCT 100 s, no preemption.
TEST(MixedTest, ReplicaWaitFeedsBackIntoTheServingTwin) {
  Hand h;
  auto m = h.run(nullptr, "fifo");
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  EXPECT_TRUE(m->converged);
  EXPECT_EQ(m->rounds, 5);
  ASSERT_EQ(m->serving.replicas.size(), 2u);
  EXPECT_EQ(m->replica_wait_us[1], 25 * kS + kIteration);  // 31.019 - 5 s
  EXPECT_EQ(m->serving.replicas[1].start_us, 30 * kS + kIteration);
  EXPECT_EQ(m->serving.replicas[0].stop_us, 30 * kS + kIteration);
  EXPECT_EQ(m->serving.outcomes[2].first_token_us, 30 * kS + kIteration);
  EXPECT_EQ(m->engine.summary.preemptions, 0u);
  EXPECT_DOUBLE_EQ(m->engine.summary.avg_jct_s, 100);
}

TEST(MixedTest, RefusesAQueueTreeWithoutTheServiceQueue) {
  Hand h;
  auto t = std::make_shared<QueueTree>(*hand_queues());
  t->queues[0].name = "inference";
  auto m = h.run(t);
  ASSERT_FALSE(m.is_ok());
  EXPECT_NE(m.status().message().find("queue 'serving' is not in the --queues tree"), std::string::npos);
}

TEST(MixedTest, RefusesAPreemptibleReplicaClass) {
  Hand h;
  auto t = std::make_shared<QueueTree>(*hand_queues());
  t->priority_classes[0].preemptible = true;
  auto m = h.run(t);
  ASSERT_FALSE(m.is_ok());
  EXPECT_NE(m.status().message().find("preemptible: false"), std::string::npos);
}

}  // namespace
}  // namespace boreas::mixed
