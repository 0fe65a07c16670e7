// las-quota (policy/las_quota.h) against plain las on a case worked by hand, its kept order against
// the plain path on random runs, and the preemption cap (--max-preemptions) of the preemptive
// policies.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "config/cluster_spec.h"
#include "policy/las_quota.h"
#include "policy/priority_scheduler.h"
#include "state/cluster_view.h"
#include "support/arrivals.h"
#include "support/boreas_runs.h"
#include "support/cluster_builder.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

// One 4-GPU node; queues a and b are guaranteed 2 GPUs each; one LAS threshold at 100 GPU-s.
//  t=0    jobs 0 and 1 (a, 2 GPUs, 1000 s) start: a borrows b's idle GPUs. Both reach 100 GPU-s
//         at t=50 (level 1).
//  t=200  job 2 (b, 2 GPUs, 1000 s) arrives at level 0. Both policies preempt job 1 (las: the
//         lowest-ranked running job; las-quota: job 2 is inside b's guarantee, job 1 beyond a's).
//  t=250  job 2 reaches level 1.
//  t=300  job 3 (a, 2 GPUs, 50 s) arrives at level 0.
//    las:       the lowest-ranked running job is job 2 (level 1 since 250, after job 0's 50): b's
//               only job is preempted while b is under its guarantee. Job 3 runs 300..350, job 1
//               (entered level 1 first) resumes 350..1150 with 800 s left, job 0 ends at 1000,
//               job 2 resumes 1000..1900 with 900 s left.
//    las-quota: job 2 fills b's guarantee (owed); a's jobs in LAS order are job 3 (level 0, owed)
//               then jobs 0 and 1 (beyond): job 0 is preempted after 300 s of work. At 350 job 0
//               (ahead of job 1 at the same level and entry) is a's owed job again and resumes
//               with 700 s left (ends 1050); job 2 runs on to 1200; job 1 resumes at 1050 with
//               800 s left and ends at 1850.
struct Case {
  Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  policy::PolicyOptions options;
};

Case worked_case() {
  Case c;
  auto tree = config::load_queues_string(
      "queues:\n"
      "  - {name: a, quotas: [{gpu: '*', guaranteed: 2}]}\n"
      "  - {name: b, quotas: [{gpu: '*', guaranteed: 2}]}\n",
      "las_quota_test", c.cluster);
  EXPECT_TRUE(tree.is_ok()) << (tree.is_ok() ? "" : tree.status().message());
  c.options.tenancy.queues = std::make_shared<QueueTree>(std::move(*tree));
  c.options.service.thresholds_gpu_s = {100};
  c.jobs.add(0, 2, 1000, "a").add(0, 2, 1000, "a").add(200, 2, 1000, "b").add(300, 2, 50, "a");
  return c;
}

void expect_job(const sim::RunOutput& out, uint32_t job, int64_t start, int64_t end, uint32_t preemptions) {
  SCOPED_TRACE("job " + std::to_string(job));
  const auto& rec = out.result.jobs.at(job);
  EXPECT_EQ(rec.first_start, Time::from_seconds(start));
  EXPECT_EQ(rec.end, Time::from_seconds(end));
  EXPECT_EQ(rec.preemptions, preemptions);
}

TEST(LasQuota, ServesTheGuaranteeThatPlainLasPreempts) {
  Case c = worked_case();
  auto las = testing::simulate({&c.cluster, c.jobs.jobs(), &c.jobs.symbols()}, "las", c.options);
  ASSERT_TRUE(las.is_ok()) << las.status().message();
  expect_job(*las, 0, 0, 1000, 0);
  expect_job(*las, 1, 0, 1150, 1);
  expect_job(*las, 2, 200, 1900, 1);
  expect_job(*las, 3, 300, 350, 0);
  EXPECT_GT(las->summary.quota_violation_gpu_seconds, 0.0);

  auto lq = testing::simulate({&c.cluster, c.jobs.jobs(), &c.jobs.symbols()}, "las-quota", c.options);
  ASSERT_TRUE(lq.is_ok()) << lq.status().message();
  expect_job(*lq, 0, 0, 1050, 1);
  expect_job(*lq, 1, 0, 1850, 1);
  expect_job(*lq, 2, 200, 1200, 0);
  expect_job(*lq, 3, 300, 350, 0);
  EXPECT_EQ(lq->summary.quota_violation_gpu_seconds, 0.0);
}

// Without queues nothing is owed and las-quota is las.
TEST(LasQuota, WithoutQueuesIsLas) {
  Case c = worked_case();
  c.options.tenancy.queues = nullptr;
  auto las = testing::simulate({&c.cluster, c.jobs.jobs(), &c.jobs.symbols()}, "las", c.options);
  auto lq = testing::simulate({&c.cluster, c.jobs.jobs(), &c.jobs.symbols()}, "las-quota", c.options);
  ASSERT_TRUE(las.is_ok() && lq.is_ok());
  for (uint32_t j = 0; j < 4; ++j) {
    EXPECT_EQ(lq->result.jobs[j].end, las->result.jobs[j].end) << "job " << j;
  }
}

// Philly's shape: every queue a root (small guarantees that fill and stop their walks, one of 0).
constexpr const char* kFlatTree =
    "queues:\n"
    "  - {name: org, quotas: [{gpu: '*', guaranteed: 3}]}\n"
    "  - {name: t1, quotas: [{gpu: '*', guaranteed: 6}]}\n"
    "  - {name: t2, quotas: [{gpu: '*', guaranteed: 4}]}\n"
    "  - {name: x, quotas: [{gpu: '*', guaranteed: 0}]}\n";

// The kept order (re-keying the journal's and the running jobs, merged into each root queue's
// order; a root walked again only from the first entry a change touched, until its guarantee has
// no room for the smallest gang, and not at all when every change lies behind that point; the
// scheduler told which jobs changed key, running ones too) plans as the plain path (every active
// job sorted and walked every round, every waiting job re-keyed on a tier change, running jobs
// re-keyed every round) in every round of random runs: a three-level tree, a flat root and a
// queue outside the tree (a root without guarantee), then the same queues as flat roots
// (kFlatTree, Philly's shape); gangs of 1-8 GPUs on 32, two LAS thresholds crossed while running,
// jobs ending and requeued (as failures do), with and without a preemption cap. A walk that stops
// one gang early or skips a change at its stop entry, owed jobs behind the first change not taken
// back out, moved jobs outside the owed tier left at their old tier (a job reaching the cap), or
// running jobs whose key moved left unnamed, fail it.
TEST(LasQuotaProperty, KeptOrderPlansAsThePlainPathOnRandomRuns) {
  const Cluster cluster = testing::uniform_cluster(2, 2, 8);
  const char* queues[] = {"org", "t1", "t2", "x", "z"};
  uint64_t preempted = 0, rounds = 0;
  for (const char* spec : {testing::kClassedTree, kFlatTree}) {
    auto tree = config::load_queues_string(spec, "inline", cluster);
    ASSERT_TRUE(tree.is_ok()) << tree.status().message();
    for (uint32_t cap : {0u, 2u}) {
      for (uint32_t seed = 1; seed <= 10; ++seed) {
        std::mt19937 rng(seed);
        testing::JobListBuilder jobs;
        for (int i = 0; i < 240; ++i) {
          jobs.add(i / 2, 1 + rng() % 8, 5 + rng() % 60, queues[rng() % 5]);
        }
        policy::ServiceOptions service;
        service.thresholds_gpu_s = {20, 90};
        service.max_preemptions = cap;
        policy::TenancyOptions tenancy;
        tenancy.queues = std::make_shared<QueueTree>(*tree);
        auto make = [&](bool kept) {
          return policy::PriorityScheduler("las-quota", policy::make_las_quota_order(service, tenancy, kept),
                                           policy::make_count_placement(),
                                           std::make_unique<policy::AdmitAll>());
        };
        policy::PriorityScheduler kept = make(true);
        policy::PriorityScheduler plain = make(false);
        state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
        for (uint32_t t = 0; t < 200; ++t) {
          const Time now = Time::from_seconds(t);
          ASSERT_EQ(testing::submit_arrivals(s, jobs.jobs(), now).message(), "");
          for (JobId j : std::vector<JobId>(s.running().begin(), s.running().end())) {
            const uint32_t fate = rng() % 40;
            if (fate < 2 || s.remaining_at(j, now) <= Duration::zero()) {
              ASSERT_TRUE(s.finish(j, now).is_ok());
            } else if (fate == 2) {
              ASSERT_TRUE(s.requeue(j, now).is_ok());
            }
          }
          const policy::Plan a = kept.schedule(state::ClusterView(s, now));
          const policy::Plan b = plain.schedule(state::ClusterView(s, now));
          ASSERT_EQ(testing::plan_text(a), testing::plan_text(b))
              << spec << "cap " << cap << " seed " << seed << " at " << t;
          ASSERT_TRUE(testing::apply_plan(s, a, now).is_ok());
          preempted += a.preemptions.size();
          rounds += s.pending().empty() ? 0 : 1;
        }
      }
    }
  }
  EXPECT_GT(preempted, 400u);  // guarantees reclaimed and levels crossed, not only arrivals
  EXPECT_GT(rounds, 4000u);
}

// Whole-node jobs under LAS with one threshold at 8 GPU-s (within a level running jobs rank
// ahead of waiting ones, entries count from entering the level):
//  t=0    job 0 (4 GPUs, 100 s) starts; level 1 at t=2.
//  t=10   job 1 (100 s) arrives at level 0 and preempts job 0 (10 s done); level 1 at t=12.
//  t=20   job 2 (100 s) preempts job 1 (10 s done); it runs to 120.
//  t=120  job 0 (level 1 since 2) resumes with 90 s left.
//  t=130  job 3 (10 s) arrives at level 0.
//    no cap:   job 0 is preempted a second time (20 s done), job 3 runs 130..140, job 0 resumes
//              at 140 and ends at 220, job 1 runs 220..310.
//    cap of 1: job 0, preempted once, runs to 210; job 3 runs 210..220, job 1 220..310.
TEST(MaxPreemptions, AJobPreemptedThatManyTimesRunsToItsEnd) {
  Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 100).add(10, 4, 100).add(20, 4, 100).add(130, 4, 10);
  policy::PolicyOptions options;
  options.service.thresholds_gpu_s = {8};
  for (const char* policy : {"las", "las-quota"}) {
    SCOPED_TRACE(policy);
    options.service.max_preemptions = 0;
    auto free = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, policy, options);
    ASSERT_TRUE(free.is_ok()) << free.status().message();
    expect_job(*free, 0, 0, 220, 2);
    expect_job(*free, 1, 10, 310, 1);
    expect_job(*free, 2, 20, 120, 0);
    expect_job(*free, 3, 130, 140, 0);
    options.service.max_preemptions = 1;
    auto capped = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, policy, options);
    ASSERT_TRUE(capped.is_ok()) << capped.status().message();
    expect_job(*capped, 0, 0, 210, 1);
    expect_job(*capped, 1, 10, 310, 1);
    expect_job(*capped, 2, 20, 120, 0);
    expect_job(*capped, 3, 210, 220, 0);
  }
}

}  // namespace
}  // namespace boreas
