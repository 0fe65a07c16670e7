// Scheduling rounds are bounded by events: no policy × placement runs more than kRoundsPerEvent
// rounds per event (arrival, completion, physics event). Each batch of events at one instant
// costs one round; the only other rounds are the wake-ups a policy asks for (a LAS/Gittins
// demotion, at most one per job and queue threshold, or a topo/hetero wait that expires), each
// tied to a job that arrived, so 3 per event leaves room for two thresholds and still fails a
// policy that wakes itself up without anything changing (issue 15: las and gittins woke every
// microsecond on typed jobs, 677,000,025 rounds for 8 jobs).
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "config/cluster_spec.h"
#include "policy/registry.h"
#include "support/sim_run.h"
#include "trace/trace.h"

namespace boreas {
namespace {

constexpr uint64_t kRoundsPerEvent = 3;

// Stops a run that spins: the observer sees every batch and every round, so more calls than the
// bound allows (with a margin for the jobs not yet arrived) means the bound is already broken.
sim::Observer spin_guard(uint64_t jobs) {
  auto calls = std::make_shared<uint64_t>(0);
  return [calls, limit = 40 * (jobs + 10)](const state::ClusterState&, Time t) {
    if (++*calls > limit) {
      throw std::runtime_error("more than " + std::to_string(limit) + " rounds and batches by t=" +
                               std::to_string(t.to_seconds()) + " s");
    }
  };
}

Result<sim::RunOutput> run_guarded(const Cluster& cluster, const trace::Trace& t, const std::string& policy,
                                   const std::string& placement) {
  policy::PolicyOptions o;
  o.placement = placement;
  try {
    return testing::simulate({&cluster, t.jobs, &t.symbols}, policy, o, {}, spin_guard(t.jobs.size()));
  } catch (const std::runtime_error& e) {
    return internal_error(policy + "/" + placement + " spins: " + e.what());
  }
}

void expect_bounded(const Cluster& cluster, const trace::Trace& t, const std::string& what) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  for (const auto& policy : registry.policy_names()) {
    for (const auto& placement : registry.placement_names()) {
      SCOPED_TRACE(what + " " + policy + "/" + placement);
      const auto out = run_guarded(cluster, t, policy, placement);
      if (!out.is_ok()) {
        ADD_FAILURE() << out.status().message();
        continue;
      }
      EXPECT_LE(out->result.rounds, kRoundsPerEvent * out->result.events)
          << out->result.rounds << " rounds, " << out->result.events << " events";
      for (const auto& rec : out->result.jobs) {
        EXPECT_EQ(rec.state, JobState::kCompleted);
      }
    }
  }
}

Cluster typed_16() {
  auto c = config::load_cluster_file(BOREAS_SOURCE_DIR "/tests/fixtures/config/typed-16.yaml");
  EXPECT_TRUE(c.is_ok()) << c.status().message();
  return c.is_ok() ? std::move(*c) : Cluster{};
}

// The 8-job Slurm export with GPU types (Kubernetes, Slurm and NVML spellings) on one
// A100 and one H100 node: it spun under las and gittins.
TEST(RoundBound, SlurmExportWithGpuTypes) {
  auto t = trace::read_trace_file(BOREAS_SOURCE_DIR "/tests/fixtures/traces/slurm_typed.txt", {});
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  expect_bounded(typed_16(), *t, "slurm_typed");
}

// Seeded random jobs naming no type, one type or either, on the two-type cluster.
trace::Trace fuzzed_typed_jobs(uint32_t n, uint32_t seed) {
  trace::Trace t;
  std::mt19937 rng(seed);
  const uint32_t sizes[] = {1, 1, 2, 4, 8};
  const char* types[] = {"", "a100", "NVIDIA H100 80GB HBM3", "A100-80G|H100-SXM"};
  int64_t at = 0;
  for (uint32_t i = 0; i < n; ++i) {
    at += rng() % 900;
    JobSpec j;
    j.id = JobId(i);
    j.name = t.symbols.add(std::to_string(i));
    j.gpus = sizes[rng() % 5];
    j.gpu_types = t.symbols.intern(types[rng() % 4]);
    j.submit = Time::from_seconds(at);
    j.duration = Duration::seconds(1 + static_cast<int64_t>(rng() % 20000));
    j.preemptible = i % 5 != 0;
    t.jobs.push_back(j);
  }
  return t;
}

TEST(RoundBound, FuzzedTypedTraces) {
  const Cluster cluster = typed_16();
  for (uint32_t seed : {1u, 2u, 3u}) {
    expect_bounded(cluster, fuzzed_typed_jobs(120, seed), "seed " + std::to_string(seed));
  }
}

}  // namespace
}  // namespace boreas
