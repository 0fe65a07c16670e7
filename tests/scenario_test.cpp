// Runs every tests/scenarios/*.txt file: exact first start, end and preemption count per job and
// policy, with ClusterState invariants checked after every event. Also runs every policy ×
// placement on the scenarios and on a random workload, checking properties: invariants after every
// event, every job completes, work is conserved.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "config/cluster_spec.h"
#include "policy/registry.h"
#include "sim/run.h"
#include "support/cluster_builder.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

struct Expect {
  std::string policy;
  uint32_t job = 0;
  int64_t start_s = 0, end_s = 0;
  uint32_t preemptions = 0;
};

struct Scenario {
  std::string name;
  Cluster cluster;
  testing::JobListBuilder jobs;
  policy::PolicyOptions options;
  std::vector<Expect> expects;
};

std::unique_ptr<Scenario> parse_scenario(const std::filesystem::path& path) {
  auto s = std::make_unique<Scenario>();
  s->name = path.filename().string();
  std::ifstream in(path);
  std::string line, word;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    if (!(row >> word) || word[0] == '#') {
      continue;
    }
    if (word == "cluster") {
      uint32_t racks = 0, nodes = 0, gpus = 0;
      row >> racks >> nodes >> gpus;
      s->cluster = testing::uniform_cluster(racks, nodes, gpus);
    } else if (word == "job") {
      int64_t submit = 0, duration = 0;
      uint32_t gpus = 0;
      row >> submit >> gpus >> duration;
      s->jobs.add(submit, gpus, duration);
    } else if (word == "option") {
      std::string key;
      double value = 0;
      row >> key;
      if (key == "starvation_factor") {
        row >> s->options.service.starvation_factor;
      } else {
        s->options.service.thresholds_gpu_s.clear();
        while (row >> value) {
          s->options.service.thresholds_gpu_s.push_back(value);
        }
        EXPECT_EQ(key, "las_thresholds") << path;
        row.clear();  // reading to the end of the list set failbit
      }
    } else if (word == "expect") {
      Expect e;
      row >> e.policy >> e.job >> e.start_s >> e.end_s >> e.preemptions;
      s->expects.push_back(e);
    }
    EXPECT_FALSE(row.fail()) << path << ": cannot read '" << line << "'";
  }
  return s;
}

std::vector<std::filesystem::path> scenario_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(BOREAS_SOURCE_DIR "/tests/scenarios")) {
    if (e.path().extension() == ".txt") {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Runs one policy with invariants checked after every event; returns the output (test fails on error).
sim::RunOutput run_checked(const Cluster& cluster, testing::JobListBuilder& jobs, const std::string& policy,
                           policy::PolicyOptions options, Duration overhead = Duration::zero()) {
  sim::EngineOptions engine;
  engine.preemption_overhead = overhead;
  auto observer = [&](const state::ClusterState& s, Time t) {
    const Status st = s.check_invariants();
    ASSERT_TRUE(st.is_ok()) << policy << " at t=" << t.to_seconds() << ": " << st.message();
  };
  auto out = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, policy, std::move(options), engine,
                               observer);
  EXPECT_TRUE(out.is_ok()) << (out.is_ok() ? "" : out.status().message());
  return out.is_ok() ? std::move(*out) : sim::RunOutput{};
}

TEST(Scenarios, ExactStartsAndEnds) {
  const auto files = scenario_files();
  ASSERT_GE(files.size(), 2u);
  for (const auto& file : files) {
    auto s = parse_scenario(file);
    std::map<std::string, sim::RunOutput> runs;
    for (const Expect& e : s->expects) {
      if (runs.count(e.policy) == 0) {
        runs[e.policy] = run_checked(s->cluster, s->jobs, e.policy, s->options);
      }
      const auto& rec = runs[e.policy].result.jobs.at(e.job);
      SCOPED_TRACE(s->name + " " + e.policy + " job " + std::to_string(e.job));
      EXPECT_EQ(rec.first_start, Time::from_seconds(e.start_s));
      EXPECT_EQ(rec.end, Time::from_seconds(e.end_s));
      EXPECT_EQ(rec.preemptions, e.preemptions);
    }
  }
}

// Every job completes and its runs add up to its work plus the overhead of each preemption.
void expect_properties(const sim::RunOutput& out, std::span<const JobSpec> jobs, Duration overhead,
                       const std::string& what) {
  std::vector<Duration> ran(jobs.size());
  for (const auto& r : out.result.runs) {
    ran[r.job.value()] += r.end - r.start;
  }
  for (const JobSpec& j : jobs) {
    const auto& rec = out.result.jobs[j.id.value()];
    ASSERT_EQ(rec.state, JobState::kCompleted) << what << " job " << j.id.value();
    EXPECT_EQ(ran[j.id.value()], j.duration + overhead * rec.preemptions) << what << " job " << j.id.value();
    EXPECT_EQ(rec.end - j.submit, rec.pending_total + ran[j.id.value()]) << what << " job " << j.id.value();
  }
}

// Every fifth job may not be preempted (as the Alibaba trace's latency-sensitive pods), and jobs
// spread over queues a, b, c when `queues` is set.
void random_jobs(testing::JobListBuilder& b, uint32_t n, uint32_t seed, bool queues = false) {
  std::mt19937 rng(seed);
  const uint32_t sizes[] = {1, 1, 2, 4, 8, 16};
  const char* names[] = {"a", "b", "c"};
  int64_t t = 0;
  for (uint32_t i = 0; i < n; ++i) {
    t += rng() % 600;
    b.add(t, sizes[rng() % 6], 1 + static_cast<int64_t>(rng() % 20000), queues ? names[rng() % 3] : "default");
    b.jobs().back().preemptible = i % 5 != 0;
  }
}

TEST(Scenarios, EveryPolicyAndPlacementKeepsProperties) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  testing::JobListBuilder random;
  random_jobs(random, 300, 7);
  const Cluster cluster = testing::uniform_cluster(2, 2, 8);
  for (const auto& policy : registry.policy_names()) {
    for (const auto& placement : registry.placement_names()) {
      policy::PolicyOptions o;
      o.placement = placement;
      const Duration overhead = Duration::seconds(placement == "pack" ? 30 : 0);
      auto out = run_checked(cluster, random, policy, o, overhead);
      expect_properties(out, random.jobs(), overhead, policy + "/" + placement);
    }
  }
}

// No policy × placement runs more than 3 scheduling rounds per event on the scenarios (the bound
// and its reason: tests/round_bound_test.cpp, which also runs typed and fuzzed traces).
TEST(Scenarios, RoundsBoundedByEvents) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  for (const auto& file : scenario_files()) {
    auto s = parse_scenario(file);
    for (const auto& policy : registry.policy_names()) {
      for (const auto& placement : registry.placement_names()) {
        policy::PolicyOptions o = s->options;
        o.placement = placement;
        const auto out = run_checked(s->cluster, s->jobs, policy, o);
        EXPECT_LE(out.result.rounds, 3 * out.result.events) << s->name << " " << policy << "/" << placement;
      }
    }
  }
}

// The boreas policy under tight guarantees and a preemption cap of 1: every job still completes
// (liveness), work is conserved and no guarantee is ever short.
TEST(Scenarios, BoreasWithQueuesCompletesEveryJob) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  testing::JobListBuilder random;
  random_jobs(random, 300, 11, true);
  const Cluster cluster = testing::uniform_cluster(2, 2, 8);
  auto tree = config::load_queues_string(
      "queues: [{name: a, quotas: [{gpu: '*', guaranteed: 12}]}, {name: b, quotas: [{gpu: '*', guaranteed: 3}]},"
      " {name: c}]",
      "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  const auto queues = std::make_shared<QueueTree>(std::move(*tree));
  for (const auto& placement : {"count", "pack"}) {
    policy::PolicyOptions o;
    o.placement = placement;
    o.tenancy.queues = queues;
    o.tenancy.preemption.max_per_job = 1;
    o.tenancy.preemption.min_runtime = Duration::zero();
    auto out = run_checked(cluster, random, "boreas", o, Duration::zero());
    expect_properties(out, random.jobs(), Duration::zero(), std::string("boreas/") + placement);
    EXPECT_EQ(out.summary.quota_violation_gpu_seconds, 0.0) << placement;
  }
}

}  // namespace
}  // namespace boreas

namespace boreas {
namespace {

TEST(Metrics, PercentilesInterpolateLinearly) {
  const std::vector<double> v{1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(sim::percentile(v, 50), 2.5);
  EXPECT_DOUBLE_EQ(sim::percentile(v, 99), 3.97);
  EXPECT_DOUBLE_EQ(sim::percentile(v, 0), 1);
  EXPECT_DOUBLE_EQ(sim::percentile(std::vector<double>{}, 50), 0);
}

// fifo on basic.txt: JCTs 10, 15, 17, 17, 35; queue times 0, 10, 14, 13, 15; makespan 38;
// utilization (2·10 + 4·5 + 1·3 + 2·4 + 2·20) / (4 · 38) = 91 / 152.
TEST(Metrics, SummaryOfTheBasicScenario) {
  auto s = parse_scenario(BOREAS_SOURCE_DIR "/tests/scenarios/basic.txt");
  const auto out = run_checked(s->cluster, s->jobs, "fifo", s->options);
  EXPECT_DOUBLE_EQ(out.summary.avg_jct_s, 18.8);
  EXPECT_DOUBLE_EQ(out.summary.p50_jct_s, 17);
  EXPECT_DOUBLE_EQ(out.summary.avg_queue_s, 10.4);
  EXPECT_DOUBLE_EQ(out.summary.makespan_s, 38);
  EXPECT_DOUBLE_EQ(out.summary.utilization, 91.0 / 152.0);
  EXPECT_EQ(out.summary.queues.at("default").jobs, 5u);
}

}  // namespace
}  // namespace boreas

namespace boreas {
namespace {

// A gang that can never fit (too large, or asking for a GPU type the cluster lacks) is cancelled
// at arrival with a reason, instead of blocking strict FIFO forever.
TEST(Scenarios, ImpossibleJobsAreCancelledNotBlocking) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 8, 10).add(0, 1, 10).add(1, 1, 5);
  jobs.jobs()[1].gpu_types = jobs.symbols().intern("H100-SXM");
  const auto out = run_checked(cluster, jobs, "fifo", {});
  EXPECT_EQ(out.result.jobs[0].state, JobState::kCancelled);
  EXPECT_EQ(out.result.never_started[0], sim::NeverStarted::kExceedsCluster);
  EXPECT_EQ(out.result.jobs[1].state, JobState::kCancelled);
  EXPECT_EQ(out.result.jobs[2].first_start, Time::from_seconds(1));
  EXPECT_EQ(out.result.jobs[2].end, Time::from_seconds(6));
}

}  // namespace
}  // namespace boreas
