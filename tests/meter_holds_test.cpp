// The meter's idle-while-waiting integral against its definition recomputed from scratch at every
// instant of random runs driven round by round: GPUs free while a waiting gang that is not held by
// its queue's quota would fit them, min(free GPUs, the GPUs of such gangs that fit). The runs use
// the `boreas` policy under a tree with ceilings (jobs held `quota-exceeded` and `never-fits`, so
// the meter walks the waiting jobs) and strict `fifo` (GPUs idle behind a blocked head, no holds:
// the book never saw one and the meter keeps the bound it read from its buckets). Each instant calls the meter twice, as the engine does: once
// after the arrivals and ends (observe_before_more) and once after the round.

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "config/cluster_spec.h"
#include "policy/boreas_policy.h"
#include "policy/placement.h"
#include "policy/queue_scheduler.h"
#include "policy/reason_book.h"
#include "sim/meter.h"
#include "state/cluster_view.h"
#include "support/arrivals.h"
#include "support/boreas_runs.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

// 32 GPUs; the ceilings add up to 20, so GPUs stay free while held jobs wait.
constexpr const char* kCeilingTree =
    "queues:\n"
    "  - {name: a, quotas: [{gpu: '*', guaranteed: 6, borrow_limit: 2}]}\n"
    "  - {name: b, quotas: [{gpu: '*', guaranteed: 4, borrow_limit: 0}]}\n"
    "  - {name: c, quotas: [{gpu: '*', guaranteed: 2, borrow_limit: 6}]}\n";

struct Seen {
  uint64_t instants_held = 0;     // some waiting job held by quota while GPUs were free
  uint64_t instants_counted = 0;  // GPUs free, no hold in the book, a waiting gang fitting
};

// The definition: one GPU type, so every waiting gang may use every free GPU.
double idle_rate(const state::ClusterState& s, const policy::ReasonBook& book, Seen& seen) {
  const uint64_t free = s.free_gpus();
  if (free == 0 || s.pending().empty()) {
    return 0;
  }
  uint64_t demand = 0;
  bool held = false;
  for (JobId j : s.pending()) {
    const bool hold = policy::is_quota_hold(book.kind(j));
    held = held || hold;
    demand += !hold && s.spec(j).gpus <= free ? s.spec(j).gpus : 0;
  }
  seen.instants_held += held ? 1 : 0;
  seen.instants_counted += !book.gave_quota_holds() && demand > 0 ? 1 : 0;
  return static_cast<double>(std::min(free, demand));
}

size_t holds_in(const policy::ReasonBook& book, uint32_t jobs) {
  size_t n = 0;
  for (uint32_t j = 0; j < jobs; ++j) {
    n += policy::is_quota_hold(book.kind(JobId(j))) ? 1 : 0;
  }
  return n;
}

void compare_run(uint32_t seed, bool boreas, Seen& seen) {
  const Cluster cluster = testing::uniform_cluster(2, 2, 8);
  auto tree = config::load_queues_string(kCeilingTree, "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  const char* queues[] = {"a", "b", "c"};
  std::mt19937 rng(seed);
  testing::JobListBuilder jobs;
  for (int i = 0; i < 160; ++i) {
    jobs.add(i / 2, 1 + rng() % 10, 50, queues[rng() % 3]);
  }
  policy::TenancyOptions tenancy;
  tenancy.queues = std::make_shared<QueueTree>(*tree);
  std::unique_ptr<policy::Scheduler> scheduler;
  if (boreas) {
    scheduler = std::make_unique<policy::BoreasScheduler>(tenancy, policy::make_count_placement());
  } else {
    scheduler = std::make_unique<policy::QueueScheduler>("fifo", policy::Blocking::kStrict,
                                                         policy::make_count_placement(),
                                                         std::make_unique<policy::AdmitAll>(), 1.0);
  }
  state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
  sim::MeterOptions options;
  options.quota_holds = true;
  sim::Meter meter(s, options);
  policy::ReasonBook book;
  ASSERT_TRUE(meter.start(Time::from_seconds(0), Time::from_seconds(79)).is_ok());
  double expected = 0, rate = 0;
  Time last = Time::from_seconds(0);
  for (uint32_t t = 0; t < 140; ++t) {
    const Time now = Time::from_seconds(t);
    expected += rate * (now - last).to_seconds();
    last = now;
    ASSERT_EQ(testing::submit_arrivals(s, jobs.jobs(), now).message(), "");
    for (JobId j : std::vector<JobId>(s.running().begin(), s.running().end())) {
      if (rng() % 10 == 0) {
        ASSERT_TRUE(s.finish(j, now).is_ok());
      }
    }
    meter.observe_before_more(now, 0);
    const policy::Plan plan = scheduler->schedule(state::ClusterView(s, now));
    book.apply(plan.reasons);
    ASSERT_TRUE(testing::apply_plan(s, plan, now).is_ok());
    meter.observe(now, 0, book);
    if (holds_in(book, s.job_count()) > 0) {
      ASSERT_TRUE(book.gave_quota_holds()) << "seed " << seed << " at " << t << " s";
    }
    rate = idle_rate(s, book, seen);
  }
  const Time end = Time::from_seconds(150);
  expected += rate * (end - last).to_seconds();
  EXPECT_DOUBLE_EQ(meter.finish(end).idle_while_waiting_gpu_s, expected) << (boreas ? "boreas" : "fifo")
                                                                         << " seed " << seed;
}

TEST(MeterProperty, IdleWhileWaitingEqualsTheDefinitionOnRandomRuns) {
  Seen boreas, fifo;
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    compare_run(seed, true, boreas);
    compare_run(seed, false, fifo);
  }
  EXPECT_GT(boreas.instants_held, 100u);  // the walk over held jobs was exercised
  EXPECT_EQ(fifo.instants_held, 0u);
  EXPECT_GT(fifo.instants_counted, 100u);  // and the bound kept without a walk
}

}  // namespace
}  // namespace boreas
