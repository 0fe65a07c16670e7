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
#include "sim/engine.h"
#include "state/cluster_view.h"
#include "support/arrivals.h"
#include "support/boreas_runs.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

struct Counts {
  uint64_t rounds = 0, quiet = 0, started = 0, preempted = 0, behind = 0, blocked_runs = 0;
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
  auto tree = config::load_queues_string(testing::kClassedTree, "inline", cluster);
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
  policy::ReasonBook full_reasons, quiet_reasons;
  for (uint32_t t = 0; t < 120; ++t) {
    const Time now = Time::from_seconds(t);
    ASSERT_EQ(testing::submit_arrivals(s, jobs.jobs(), now).message(), "");
    const policy::Plan a = full.schedule(state::ClusterView(s, now));
    const policy::Plan b = quiet.schedule(state::ClusterView(s, now));
    ASSERT_EQ(testing::round_difference(a, b, full_reasons, quiet_reasons, s.job_count()), "")
        << "seed " << seed << " at " << t << " s";
    for (uint32_t j = 0; j < s.job_count(); ++j) {
      counts.behind += full_reasons.kind(JobId(j)) == policy::PendingKind::kBehindHigherPriority ? 1 : 0;
    }
    ASSERT_TRUE(testing::apply_plan(s, a, now).is_ok());
    counts.rounds += 1;
    counts.started += a.starts.size();
    counts.preempted += a.preemptions.size();
    if (t % 4 == 3) {  // rounds between ends see only arrivals
      end_some(s, now, rng);
    }
  }
  EXPECT_EQ(full.quiet_rounds_run(), 0u);
  counts.quiet += quiet.quiet_rounds_run();
  counts.blocked_runs += quiet.blocked_runs_skipped();
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
    EXPECT_GT(counts.blocked_runs, 50u);  // pass 2 skipped groups that could not start
    if (with_queues) {
      EXPECT_GT(counts.preempted, 20u);
    }
  }
}

// The engine's book of reasons, fed by the plans alone, ends a whole run with the reason a plain run
// (every round runs the passes and writes every waiting job's reason) ends with, for every job; the
// meter, which reads the book's kinds while the run goes on (quota holds), integrates the same idle
// time. Runs with the classed tree give reasons of every kind; in runs without queues a fifth of the
// rounds are quiet, whose reasons reach the book as quiet places and span free GPUs.
struct EngineRuns {
  uint64_t rounds = 0, quiet = 0, behind = 0, other = 0;  // other: a kind quiet rounds never give
};

void compare_engine_run(uint32_t seed, bool with_queues, EngineRuns& runs) {
  const Cluster cluster = testing::uniform_cluster(2, 2, 8);
  auto tree = config::load_queues_string(testing::kClassedTree, "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  const char* queues[] = {"org", "t1", "t2", "x", "z"};
  const char* classes[] = {"prod", "high", "low", "low", "low"};
  std::mt19937 rng(seed);
  testing::JobListBuilder jobs;
  for (int i = 0; i < 400; ++i) {
    jobs.add(i / 4, 2u << (rng() % 3), 20 + static_cast<int64_t>(rng() % 300), queues[rng() % 5]);
    jobs.jobs().back().priority_class = jobs.symbols().intern(classes[rng() % 5]);
  }
  policy::TenancyOptions options;
  if (with_queues) {
    options.queues = std::make_shared<QueueTree>(*tree);
  }
  options.preemption.min_runtime = Duration::seconds(30);
  sim::EngineOptions engine;
  engine.meter.quota_holds = true;
  policy::BoreasScheduler lazy(options, policy::make_count_placement());
  policy::BoreasScheduler plain(options, policy::make_count_placement());
  plain.set_shortcuts(false);
  auto a = sim::Engine(cluster, jobs.jobs(), jobs.symbols(), lazy, engine).run();
  auto b = sim::Engine(cluster, jobs.jobs(), jobs.symbols(), plain, engine).run();
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  for (uint32_t j = 0; j < jobs.jobs().size(); ++j) {
    const std::string ra = j < a->pending_reasons.size() ? a->pending_reasons[j] : "";
    const std::string rb = j < b->pending_reasons.size() ? b->pending_reasons[j] : "";
    ASSERT_EQ(ra, rb) << "seed " << seed << " job " << j;
    const bool quiet_kind = ra.rfind("behind-higher-priority", 0) == 0 || ra.rfind("no-fit", 0) == 0;
    runs.behind += ra.rfind("behind-higher-priority", 0) == 0 ? 1 : 0;
    runs.other += !ra.empty() && !quiet_kind ? 1 : 0;
  }
  EXPECT_EQ(a->meter.idle_while_waiting_gpu_s, b->meter.idle_while_waiting_gpu_s) << "seed " << seed;
  runs.rounds += a->rounds;
  runs.quiet += lazy.quiet_rounds_run();
}

TEST(BoreasQuietRoundProperty, EngineBookEndsAsAPlainRun) {
  for (const bool with_queues : {true, false}) {
    EngineRuns runs;
    for (uint32_t seed = 1; seed <= 4; ++seed) {
      compare_engine_run(seed, with_queues, runs);
    }
    EXPECT_GT(runs.behind, 100u);
    if (with_queues) {
      EXPECT_GT(runs.other, 0u);
    } else {
      EXPECT_GT(runs.quiet, runs.rounds / 8);
    }
  }
}

}  // namespace
}  // namespace boreas
