// What the `boreas` policy keeps across rounds from the state's journal equals the same built from
// scratch after every round of random runs (arrivals, starts, preemptions, completions, requeues;
// two classes, a tree): the ranking groups (stale entries dropped and new ones merged in when
// ranked), the demands of running jobs and the usage counted from them (quota books, held and
// pinned GPUs, running classes), the places each group keeps as the book holds them; and a
// round's free GPUs from the free index.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "config/cluster_spec.h"
#include "policy/boreas_policy.h"
#include "policy/placement.h"
#include "policy/round_free.h"
#include "state/cluster_view.h"
#include "support/arrivals.h"
#include "support/boreas_runs.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

// The last rack's nodes get a second GPU type, so demands and free counts differ by type.
Cluster two_types(Cluster c) {
  GpuType second;
  second.name = "TEST2";
  c.catalog.add(second);
  for (Node& n : c.nodes) {
    n.gpu_type = n.rack.value() + 1 == c.racks.size() ? GpuTypeId(1) : GpuTypeId(0);
  }
  return c;
}

struct Counts {
  uint64_t rounds = 0, preempted = 0, requeued = 0, tidy_rounds = 0, wrapped_ranges = 0;
};

// Applies the plan as the engine does (preemptions, then starts) and ends some running jobs.
void apply(state::ClusterState& s, const policy::Plan& plan, Time now, std::mt19937& rng, Counts& counts) {
  for (JobId v : plan.preemptions) {
    ASSERT_TRUE(s.preempt(v, now).is_ok());
    counts.preempted += 1;
  }
  for (const policy::Start& st : plan.starts) {
    ASSERT_TRUE(s.start(st.job, st.gpus, now).is_ok());
  }
  std::vector<JobId> running(s.running().begin(), s.running().end());
  for (JobId j : running) {
    const uint32_t fate = rng() % 10;
    if (fate < 2) {
      ASSERT_TRUE(s.finish(j, now).is_ok());
    } else if (fate == 2) {  // as after a node failure: it runs again, likely on other GPUs
      ASSERT_TRUE(s.requeue(j, now).is_ok());
      counts.requeued += 1;
    }
  }
}

void run_checked(uint32_t seed, Counts& counts) {
  const Cluster cluster = two_types(testing::uniform_cluster(2, 2, 8));
  auto tree = config::load_queues_string(testing::kClassedTree, "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  const char* queues[] = {"org", "t1", "t2", "x", "z"};
  std::mt19937 rng(seed);
  testing::JobListBuilder jobs;
  for (int i = 0; i < 200; ++i) {
    jobs.add(i / 4, 1 + rng() % 8, 50, queues[rng() % 5]);
    const char* classes[] = {"prod", "high", "low", "low"};  // prod may not be preempted: pinned or covered
    jobs.jobs().back().priority_class = jobs.symbols().intern(classes[rng() % 4]);
  }
  policy::TenancyOptions options;
  options.queues = std::make_shared<QueueTree>(*tree);
  options.preemption.min_runtime = Duration::zero();
  policy::BoreasScheduler scheduler(options, policy::make_pack_placement());
  state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
  for (int64_t t = 0; t < 120; ++t) {
    const Time now = Time::from_seconds(t);
    const Status arrived = testing::submit_arrivals(s, jobs.jobs(), now);
    ASSERT_TRUE(arrived.is_ok()) << arrived.message();
    const state::ClusterView view(s, now);
    const Status usage = scheduler.check_usage(view);
    ASSERT_TRUE(usage.is_ok()) << "seed " << seed << " before the round at " << t << " s: " << usage.message();
    const policy::Plan plan = scheduler.schedule(view);
    const Status check = scheduler.check_kept_state(view);
    ASSERT_TRUE(check.is_ok()) << "seed " << seed << " at " << t << " s: " << check.message();
    counts.rounds += 1;
    counts.tidy_rounds += s.pending().size() > 1 ? 1 : 0;
    apply(s, plan, now, rng, counts);
  }
  counts.wrapped_ranges += scheduler.wrapped_places_reused();
}

TEST(BoreasKeptStateProperty, EqualsStateFromScratchOnRandomRuns) {
  Counts counts;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    run_checked(seed, counts);
  }
  EXPECT_EQ(counts.rounds, 20u * 120u);
  EXPECT_GT(counts.tidy_rounds, 1000u);  // rounds with jobs waiting: the groups had something to hold
  EXPECT_GT(counts.preempted, 0u);       // preempted jobs came back into their groups
  EXPECT_GT(counts.requeued, 100u);      // and requeued ones, to start again on other GPUs
  // check_kept_state checks every kept range of places; some stood for a base below zero modulo 2^32.
  EXPECT_GT(counts.wrapped_ranges, 0u);
}

// A round's free capacity from the free index (policy/round_free.h) equals a walk over every
// node through random starts, ends and nodes taken out of service and back.
policy::RoundFree walk_nodes(const state::ClusterView& view) {
  policy::RoundFree out;
  out.by_type.assign(view.cluster().catalog.size(), 0);
  const std::vector<Node>& nodes = view.cluster().nodes;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].gpu_type && !view.node_down(NodeId(i))) {
      out.by_type[nodes[i].gpu_type->value()] += view.state().node_free(NodeId(i));
    }
    out.largest_block = std::max(out.largest_block, view.state().node_free(NodeId(i)));
  }
  return out;
}

// Starts a pending job on its gpus free GPUs chosen at random, if there are enough.
bool start_random(state::ClusterState& s, JobId job, std::mt19937& rng) {
  std::vector<GpuId> free;
  for (uint32_t g = 0; g < s.total_gpus(); ++g) {
    if (s.gpu_free(GpuId(g))) {
      free.push_back(GpuId(g));
    }
  }
  if (free.size() < s.spec(job).gpus) {
    return false;
  }
  std::shuffle(free.begin(), free.end(), rng);
  free.resize(s.spec(job).gpus);
  return s.start(job, free, Time::from_seconds(0)).is_ok();
}

void step(state::ClusterState& s, std::mt19937& rng, uint32_t& next_job) {
  const uint32_t what = rng() % 4;
  if (what == 0 && next_job < s.job_count()) {
    const JobId job(next_job++);
    ASSERT_TRUE(s.submit(job, Time::from_seconds(0)).is_ok());
    start_random(s, job, rng);
  } else if (what == 1 && !s.running().empty()) {
    const JobId job = s.running()[rng() % s.running().size()];
    ASSERT_TRUE(s.finish(job, Time::from_seconds(0)).is_ok());
  } else {
    const NodeId node(static_cast<uint32_t>(rng() % s.cluster().nodes.size()));
    (void)(s.node_down(node) ? s.bring_up(node) : s.take_down(node));  // refused while it runs jobs
  }
}

TEST(RoundFreeProperty, FreeIndexEqualsANodeWalkOnRandomStates) {
  const Cluster cluster = two_types(testing::uniform_cluster(3, 4, 8));
  uint64_t largest_seen = 0, down_seen = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    testing::JobListBuilder jobs;
    for (int i = 0; i < 300; ++i) {
      jobs.add(0, 1 + rng() % 12, 10);
    }
    state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
    uint32_t next_job = 0;
    for (int i = 0; i < 600; ++i) {
      step(s, rng, next_job);
      const state::ClusterView view(s, Time::from_seconds(0));
      const policy::RoundFree expected = walk_nodes(view), got = policy::round_free(view);
      ASSERT_EQ(got.by_type, expected.by_type) << "seed " << seed << " step " << i;
      ASSERT_EQ(got.largest_block, expected.largest_block) << "seed " << seed << " step " << i;
      largest_seen += expected.largest_block > 0 && expected.largest_block < 8 ? 1 : 0;
      down_seen += s.down_gpus() > 0 ? 1 : 0;
    }
  }
  EXPECT_GT(largest_seen, 100u);  // states where the largest block was neither empty nor a whole node
  EXPECT_GT(down_seen, 100u);     // and where nodes were out of service
}

}  // namespace
}  // namespace boreas
