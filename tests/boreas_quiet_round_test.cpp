// The `boreas` policy's quiet rounds (boreas_quiet.cpp) against the same policy running the passes
// in every round: the same plan every round and the same pending reason of every job after every
// round, on random runs (jobs end, are requeued or cancelled while
// waiting; idle nodes go out of service and come back) where most rounds are quiet and the others start, reclaim and preempt
// (three classes, one not preemptible so jobs are held `guarantee-only` and count idle waits; a
// tree with guarantees; requeues; a run without queues).

#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <string>

#include "config/cluster_spec.h"
#include "policy/boreas_policy.h"
#include "policy/explain.h"
#include "policy/placement.h"
#include "state/cluster_view.h"
#include "support/arrivals.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

constexpr const char* kTree =
    "priority_classes:\n"
    "  - {name: prod, value: 20, preemptible: false}\n"
    "  - {name: high, value: 10}\n"
    "  - {name: low, value: 1}\n"
    "queues:\n"
    "  - {name: org, quotas: [{gpu: '*', guaranteed: 12}]}\n"
    "  - {name: t1, parent: org, quotas: [{gpu: '*', guaranteed: 6}]}\n"
    "  - {name: t2, parent: org, quotas: [{gpu: '*', guaranteed: 4}]}\n"
    "  - {name: x, quotas: [{gpu: '*', guaranteed: 8}]}\n";

std::string plan_text(const policy::Plan& plan) {
  std::string out = "preempt";
  for (JobId v : plan.preemptions) {
    out += " " + std::to_string(v.value());
  }
  for (const policy::Start& st : plan.starts) {
    out += "; start " + std::to_string(st.job.value()) + " on";
    for (GpuId g : st.gpus) {
      out += " " + std::to_string(g.value());
    }
  }
  return out + "; wake " + (plan.wake_at ? std::to_string(plan.wake_at->us()) : "-");
}

struct Counts {
  uint64_t rounds = 0, quiet = 0, started = 0, preempted = 0, behind = 0;
};

void end_some(state::ClusterState& s, Time now, std::mt19937& rng) {
  std::vector<JobId> running(s.running().begin(), s.running().end());
  for (JobId j : running) {
    const uint32_t fate = rng() % 12;
    if (fate < 2) {
      ASSERT_TRUE(s.finish(j, now).is_ok());
    } else if (fate == 2) {
      ASSERT_TRUE(s.requeue(j, now).is_ok());
    }
  }
  const NodeId node(static_cast<uint32_t>(rng() % s.cluster().nodes.size()));
  (void)(s.node_down(node) ? s.bring_up(node) : s.take_down(node));  // refused while it runs jobs
  if (!s.pending().empty() && rng() % 2 == 0) {  // as the live daemon cancels a waiting job
    const auto at = static_cast<std::ptrdiff_t>(rng() % s.pending().size());
    ASSERT_TRUE(s.cancel(*std::next(s.pending().begin(), at), now).is_ok());
  }
}

using PlacementFactory = std::unique_ptr<policy::Placement> (*)();

void compare_run(uint32_t seed, PlacementFactory make, bool with_queues, Counts& counts) {
  const Cluster cluster = testing::uniform_cluster(2, 2, 8);
  auto tree = config::load_queues_string(kTree, "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  const char* queues[] = {"org", "t1", "t2", "x", "z"};
  const char* classes[] = {"prod", "high", "high", "low", "low", "low", "low", "low", "low", "low", "low", "low"};
  std::mt19937 rng(seed);
  testing::JobListBuilder jobs;
  for (int i = 0; i < 200; ++i) {
    jobs.add(i / 2, 1 + rng() % 8, 50, queues[rng() % 5]);
    jobs.jobs().back().priority_class = jobs.symbols().intern(classes[rng() % 12]);
  }
  policy::TenancyOptions options;
  if (with_queues) {
    options.queues = std::make_shared<QueueTree>(*tree);
  }
  options.preemption.min_runtime = Duration::zero();
  options.preemption.idle_wait_bound = Duration::seconds(5);
  policy::BoreasScheduler quiet(options, make());
  policy::BoreasScheduler full(options, make());
  full.set_shortcuts(false);
  state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
  for (int64_t t = 0; t < 120; ++t) {
    const Time now = Time::from_seconds(t);
    const Status arrived = testing::submit_arrivals(s, jobs.jobs(), now);
    ASSERT_TRUE(arrived.is_ok()) << arrived.message();
    const state::ClusterView view(s, now);
    const policy::Plan a = full.schedule(view), b = quiet.schedule(view);
    ASSERT_EQ(plan_text(a), plan_text(b)) << "seed " << seed << " at " << t << " s";
    for (uint32_t j = 0; j < s.job_count(); ++j) {
      const policy::PendingReason want = full.pending_reason(JobId(j));
      ASSERT_EQ(policy::describe(want), policy::describe(quiet.pending_reason(JobId(j))))
          << "seed " << seed << " at " << t << " s, job " << j;
      counts.behind += want.kind == policy::PendingKind::kBehindHigherPriority ? 1 : 0;
    }
    for (JobId v : a.preemptions) {
      ASSERT_TRUE(s.preempt(v, now).is_ok());
    }
    for (const policy::Start& st : a.starts) {
      ASSERT_TRUE(s.start(st.job, st.gpus, now).is_ok());
    }
    counts.rounds += 1;
    counts.started += a.starts.size();
    counts.preempted += a.preemptions.size();
    if (t % 4 == 3) {  // rounds between ends see only arrivals
      end_some(s, now, rng);
    }
  }
  EXPECT_EQ(full.quiet_rounds_run(), 0u);
  counts.quiet += quiet.quiet_rounds_run();
}

TEST(BoreasQuietRoundProperty, QuietRoundsPlanAndExplainAsThePasses) {
  for (const auto& [make, with_queues] : {std::pair{&policy::make_count_placement, true},
                                          std::pair{&policy::make_pack_placement, true},
                                          std::pair{&policy::make_count_placement, false}}) {
    Counts counts;
    for (uint32_t seed = 1; seed <= 10; ++seed) {
      compare_run(seed, make, with_queues, counts);
    }
    EXPECT_EQ(counts.rounds, 10u * 120u);
    EXPECT_GT(counts.quiet, counts.rounds / 20);      // rounds were quiet
    EXPECT_LT(counts.quiet, counts.rounds * 9 / 10);  // and many ran the passes
    EXPECT_GT(counts.started, 500u);
    EXPECT_GT(counts.behind, 1000u);  // reasons that count the jobs ahead in the queue
    if (with_queues) {
      EXPECT_GT(counts.preempted, 20u);
    }
  }
}

}  // namespace
}  // namespace boreas
