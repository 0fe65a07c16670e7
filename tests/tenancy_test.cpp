// Runs every tests/scenarios/tenancy/*.yaml under the `boreas` policy with exact expected starts,
// ends, preemption counts and pending reasons, checking ClusterState invariants after every event;
// plus unit tests of the quota, fair-share, preemption and audit parts.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <random>

#include "config/cluster_spec.h"
#include "policy/boreas_policy.h"
#include "policy/quota.h"
#include "policy/quota_audit.h"
#include "support/cluster_builder.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

struct Scenario {
  Cluster cluster;
  testing::JobListBuilder jobs;
  policy::PolicyOptions options;
  YAML::Node expect;
};

std::unique_ptr<Scenario> load(const std::filesystem::path& path) {
  const YAML::Node root = YAML::LoadFile(path.string());
  auto s = std::make_unique<Scenario>();
  const YAML::Node c = root["cluster"];
  s->cluster = testing::uniform_cluster(c["racks"].as<uint32_t>(), c["nodes"].as<uint32_t>(), c["gpus"].as<uint32_t>());
  auto tree = config::load_queues_string(YAML::Dump(root["queue_spec"]), path.string(), s->cluster);
  EXPECT_TRUE(tree.is_ok()) << (tree.is_ok() ? "" : tree.status().message());
  if (tree.is_ok()) {
    s->options.tenancy.queues = std::make_shared<QueueTree>(std::move(*tree));
  }
  s->options.placement = "pack";
  const YAML::Node o = root["options"] ? root["options"] : YAML::Node(YAML::NodeType::Map);
  auto& pre = s->options.tenancy.preemption;
  pre.min_runtime = Duration::seconds(o["min_runtime_s"] ? o["min_runtime_s"].as<int64_t>() : 0);
  pre.max_per_job = o["max_per_job"] ? o["max_per_job"].as<uint32_t>() : pre.max_per_job;
  if (o["idle_wait_bound_s"]) {
    pre.idle_wait_bound = Duration::seconds(o["idle_wait_bound_s"].as<int64_t>());
  }
  s->options.tenancy.fair_share.half_life = Duration::seconds(o["half_life_s"] ? o["half_life_s"].as<int64_t>() : 0);
  for (const auto& j : root["jobs"]) {
    s->jobs.add(j["submit"].as<int64_t>(), j["gpus"].as<uint32_t>(), j["duration"].as<int64_t>(),
                j["queue"].as<std::string>().c_str());
    if (j["class"]) {
      s->jobs.jobs().back().priority_class = s->jobs.symbols().intern(j["class"].as<std::string>());
    }
    if (j["preemptible"]) {
      s->jobs.jobs().back().preemptible = j["preemptible"].as<bool>();
    }
  }
  s->expect = root["expect"];
  return s;
}

std::vector<std::filesystem::path> scenario_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(BOREAS_SOURCE_DIR "/tests/scenarios/tenancy")) {
    if (e.path().extension() == ".yaml") {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void check_expect(const YAML::Node& e, const sim::RunOutput& out) {
  const uint32_t job = e["job"].as<uint32_t>();
  SCOPED_TRACE("job " + std::to_string(job));
  const auto& rec = out.result.jobs.at(job);
  if (e["never"]) {
    EXPECT_TRUE(rec.first_start.is_never());
  } else {
    EXPECT_EQ(rec.first_start, Time::from_seconds(e["start"].as<int64_t>()));
    EXPECT_EQ(rec.end, Time::from_seconds(e["end"].as<int64_t>()));
    EXPECT_EQ(rec.preemptions, e["preemptions"].as<uint32_t>());
  }
  if (e["reason"]) {
    ASSERT_LT(job, out.result.pending_reasons.size());
    EXPECT_EQ(out.result.pending_reasons[job].rfind(e["reason"].as<std::string>() + ":", 0), 0u)
        << out.result.pending_reasons[job];
  }
}

TEST(TenancyScenarios, ExactOutcomes) {
  const auto files = scenario_files();
  ASSERT_GE(files.size(), 7u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    auto s = load(file);
    auto observer = [](const state::ClusterState& st, Time t) {
      const Status ok = st.check_invariants();
      ASSERT_TRUE(ok.is_ok()) << "t=" << t.to_seconds() << ": " << ok.message();
    };
    auto out = testing::simulate({&s->cluster, s->jobs.jobs(), &s->jobs.symbols()}, "boreas", s->options, {},
                                 observer);
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    for (const auto& e : s->expect) {
      check_expect(e, *out);
    }
    EXPECT_EQ(out->summary.quota_violation_gpu_seconds, 0.0);
  }
}

// Without queues no GPU is guaranteed to anyone: jobs that may never be preempted run anywhere
// (the Alibaba trace marks its latency-sensitive pods so).
TEST(TenancyScenarios, NonPreemptibleJobsRunWithoutQueues) {
  Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 10, "a").add(0, 2, 10, "b").add(5, 2, 10, "b");
  jobs.jobs()[0].preemptible = false;
  jobs.jobs()[2].preemptible = false;
  auto out = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, "boreas", policy::PolicyOptions{});
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->summary.completed, 3u);
  EXPECT_EQ(out->result.jobs[0].end, Time::from_seconds(10));
  EXPECT_EQ(out->result.jobs[2].end, Time::from_seconds(20));  // beside job 1, after job 0
}

// The audit integrates the shortfall: queue a (guaranteed 4) waits 10 s for 4 GPUs under fifo
// because queue b's job holds the node: 40 GPU-seconds.
TEST(QuotaAudit, IntegratesShortfallUnderFifo) {
  Cluster cluster = testing::uniform_cluster(1, 1, 4);
  auto tree = config::load_queues_string(
      "queues: [{name: a, quotas: [{gpu: '*', guaranteed: 4}]}, {name: b}]", "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 10, "b").add(0, 4, 10, "a");
  policy::PolicyOptions options;
  options.tenancy.queues = std::make_shared<QueueTree>(std::move(*tree));
  auto fifo = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, "fifo", options);
  ASSERT_TRUE(fifo.is_ok());
  EXPECT_DOUBLE_EQ(fifo->summary.quota_violation_gpu_seconds, 40.0);
  EXPECT_DOUBLE_EQ(fifo->summary.queues.at("a").guarantee_share, 1.0);
  EXPECT_DOUBLE_EQ(fifo->summary.queues.at("b").gpu_share, 0.5);
  auto boreas = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, "boreas", options);
  ASSERT_TRUE(boreas.is_ok());
  EXPECT_DOUBLE_EQ(boreas->summary.quota_violation_gpu_seconds, 0.0);
  EXPECT_EQ(boreas->result.jobs[1].first_start, Time::from_seconds(0));  // a's guarantee goes first
}

// In a tree an owed gang counts once (not once per level), and a gang beyond its own queue's
// guarantee is not owed by an ancestor's: the path's every guarantee must have room.
TEST(QuotaAudit, TreeCountsAGangOnceAndOnlyWhereEveryLevelOwesIt) {
  Cluster cluster = testing::uniform_cluster(1, 1, 8);
  auto tree = config::load_queues_string(
      "queues:\n"
      "  - {name: org, quotas: [{gpu: '*', guaranteed: 8}]}\n"
      "  - {name: t, parent: org, quotas: [{gpu: '*', guaranteed: 4}]}\n"
      "  - {name: p, parent: t, quotas: [{gpu: '*', guaranteed: 4}]}\n"
      "  - {name: small, parent: org, quotas: [{gpu: '*', guaranteed: 2}]}\n"
      "  - {name: o}\n",
      "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  policy::PolicyOptions options;
  options.tenancy.queues = std::make_shared<QueueTree>(std::move(*tree));
  // o's 8-GPU job holds the node 0..10 under fifo while a 4-GPU gang waits.
  testing::JobListBuilder owed;
  owed.add(0, 8, 10, "o").add(0, 4, 10, "p");  // p, t and org all have room: owed, counted once
  auto a = testing::simulate({&cluster, owed.jobs(), &owed.symbols()}, "fifo", options);
  ASSERT_TRUE(a.is_ok());
  EXPECT_DOUBLE_EQ(a->summary.quota_violation_gpu_seconds, 40.0);  // 4 GPUs × 10 s, not × 3 levels
  testing::JobListBuilder beyond;
  beyond.add(0, 8, 10, "o").add(0, 4, 10, "small");  // beyond small's 2, though org has 8 free
  auto b = testing::simulate({&cluster, beyond.jobs(), &beyond.symbols()}, "fifo", options);
  ASSERT_TRUE(b.is_ok());
  EXPECT_DOUBLE_EQ(b->summary.quota_violation_gpu_seconds, 0.0);
}

// A sibling's borrowing fills the team, yet the project's own guarantee is owed: reclaim may
// always take borrowed GPUs back.
TEST(QuotaBook, OwedLooksPastSiblingsBorrowing) {
  Cluster cluster = testing::uniform_cluster(1, 1, 8);
  auto tree = config::load_queues_string(
      "queues:\n"
      "  - {name: t, quotas: [{gpu: '*', guaranteed: 4}]}\n"
      "  - {name: p1, parent: t, quotas: [{gpu: '*', guaranteed: 2}]}\n"
      "  - {name: p2, parent: t, quotas: [{gpu: '*', guaranteed: 2}]}\n",
      "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  policy::QuotaBook book(&*tree, cluster), covered(&*tree, cluster);
  const uint32_t p1 = tree->find("p1")->value(), p2 = tree->find("p2")->value();
  const policy::Demand two{{GpuTypeId(0), 2}}, four{{GpuTypeId(0), 4}};
  book.add(p2, four, +1);  // p2 borrows: in the book, not in `covered`
  EXPECT_FALSE(book.within_guarantee(p1, two));  // t would hold 6 > 4
  EXPECT_TRUE(book.owed(p1, two, covered));      // p2's borrowing can be reclaimed
  EXPECT_FALSE(book.owed(p2, two, covered));     // p2's own borrowing stays: 4 + 2 > 2
  covered.add(p2, two, +1);                      // had 2 of p2's 4 been inside its guarantee...
  EXPECT_TRUE(book.owed(p1, two, covered));      // ...t: 2 covered + 2 ≤ 4 still
  EXPECT_FALSE(book.owed(p1, four, covered));    // p1's guarantee is 2
}

TEST(QuotaBook, HierarchyCeilingsAndBorrowing) {
  Cluster cluster = testing::uniform_cluster(1, 2, 4);
  auto tree = config::load_queues_string(
      "queues:\n"
      "  - {name: org, quotas: [{gpu: '*', guaranteed: 6, borrow_limit: 0}]}\n"
      "  - {name: t1, parent: org, quotas: [{gpu: '*', guaranteed: 4}]}\n"
      "  - {name: t2, parent: org, quotas: [{gpu: '*', guaranteed: 2}]}\n"
      "  - {name: other, quotas: [{gpu: '*', guaranteed: 2}]}\n",
      "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  policy::QuotaBook book(&*tree, cluster);
  const uint32_t t1 = tree->find("t1")->value(), t2 = tree->find("t2")->value();  // parents come first
  const policy::Demand four{{GpuTypeId(0), 4}}, two{{GpuTypeId(0), 2}};
  EXPECT_TRUE(book.within_guarantee(t1, four));
  book.add(t1, four, +1);
  EXPECT_FALSE(book.within_guarantee(t1, two));  // t1 would hold 6 > 4
  EXPECT_FALSE(book.check_ceiling(t1, two));     // org: 6 ≤ 6 + 0
  book.add(t1, two, +1);                         // t1 borrows t2's idle 2
  const auto blocked = book.check_ceiling(t2, two);  // org would reach 8 > 6
  ASSERT_TRUE(blocked);
  EXPECT_EQ(book.name(blocked->queue), "org");
  EXPECT_EQ(blocked->need, 8u);
  EXPECT_TRUE(book.borrowing(t1, two, t2));   // t1 above its guarantee, t2 is not on its path
  EXPECT_FALSE(book.borrowing(t1, two, t1));  // a queue never reclaims from itself
  EXPECT_EQ(book.max_gpus(t1, GpuTypeId(0)), 6u);
  EXPECT_EQ(book.unused_guarantees(), 2u);  // other's 2; org is full
}

// borrowing_any lets a victim search pass a queue without reading its jobs, so it must say yes
// whenever borrowing() does for some demand (and, as it is exact, only then): random usage on a
// three-level tree with two GPU types and per-type guarantees, every victim and claimant pair.
TEST(QuotaBookProperty, BorrowingAnyIsBorrowingOfSomeType) {
  Cluster cluster = testing::uniform_cluster(2, 2, 8);
  GpuType second;
  second.name = "TEST2";
  cluster.catalog.add(second);
  for (Node& n : cluster.nodes) {
    n.gpu_type = n.rack.value() == 1 ? GpuTypeId(1) : GpuTypeId(0);
  }
  auto tree = config::load_queues_string(
      "queues:\n"
      "  - {name: org, quotas: [{gpu: TEST, guaranteed: 10}, {gpu: TEST2, guaranteed: 4}]}\n"
      "  - {name: t1, parent: org, quotas: [{gpu: TEST, guaranteed: 6}, {gpu: TEST2, guaranteed: 1}]}\n"
      "  - {name: t2, parent: org, quotas: [{gpu: TEST, guaranteed: 2}, {gpu: TEST2, guaranteed: 3}]}\n"
      "  - {name: p, parent: t1, quotas: [{gpu: TEST2, guaranteed: 1}]}\n"
      "  - {name: other, quotas: [{gpu: TEST, guaranteed: 3}]}\n",
      "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  std::mt19937 rng(7);
  uint64_t said_yes = 0, said_no = 0;
  for (int trial = 0; trial < 300; ++trial) {
    policy::QuotaBook book(&*tree, cluster);
    const uint32_t queues = static_cast<uint32_t>(book.queue_count());
    for (int k = 0; k < 4; ++k) {
      const policy::Demand d{{GpuTypeId(rng() % 2), 1 + static_cast<uint32_t>(rng() % 5)}};
      book.add(static_cast<uint32_t>(rng() % queues), d, +1);
    }
    for (uint32_t victim = 0; victim < queues; ++victim) {
      for (uint32_t claimant = 0; claimant < queues; ++claimant) {
        bool some_type = false;
        for (uint32_t t = 0; t < 2; ++t) {
          const policy::Demand one{{GpuTypeId(t), 1}};
          some_type = some_type || book.borrowing(victim, one, claimant);
        }
        ASSERT_EQ(book.borrowing_any(victim, claimant), some_type)
            << "trial " << trial << " victim " << book.name(victim) << " claimant " << book.name(claimant);
        (some_type ? said_yes : said_no) += 1;
      }
    }
  }
  EXPECT_GT(said_yes, 500u);  // both answers are exercised
  EXPECT_GT(said_no, 500u);
}

TEST(PreemptionGuard, HysteresisBlocksPreemptingBack) {
  policy::PreemptionGuard guard(policy::PreemptionOptions{true, Duration::zero(), Duration::seconds(100), 16, 3});
  guard.record(JobId(1), JobId(2), Time::from_seconds(10));  // 2 preempted 1
  EXPECT_FALSE(guard.not_retaliation(JobId(2), JobId(1), Time::from_seconds(50)));
  EXPECT_TRUE(guard.not_retaliation(JobId(2), JobId(1), Time::from_seconds(110)));
  EXPECT_TRUE(guard.not_retaliation(JobId(3), JobId(1), Time::from_seconds(50)));
}

}  // namespace
}  // namespace boreas
