// Properties: the per-GPU activity and charged queue that the engine's physics keeps on start and
// stop (src/sim/physics_loads.cpp) equal what the GPUs' owners say, after every step of random runs;
// and the node sums the rack refresh keeps to sum a rack again only from its first changed node
// (Physics::NodeSum) equal the plain sum taken afresh, on random runs that throttle and cap.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "sim/physics.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

constexpr uint32_t kJobs = 60;

// Jobs of 1–8 GPUs in three queues, a third of them inference (another activity than training).
testing::JobListBuilder random_jobs(std::mt19937_64& rng) {
  testing::JobListBuilder b;
  const char* queues[] = {"a", "b", "c"};
  for (uint32_t i = 0; i < kJobs; ++i) {
    b.add(0, 1 + static_cast<uint32_t>(rng() % 8), 3600, queues[rng() % 3]);
    b.jobs().back().kind = rng() % 3 == 0 ? JobKind::kInference : JobKind::kTraining;
  }
  return b;
}

sim::PhysicsOptions all_models() {
  sim::PhysicsOptions o;
  o.on = *sim::parse_physics("all");
  return o;
}

// The engine's order: settle the GPUs' racks, change the state, then tell the physics.
struct Driver {
  const Cluster& cluster;
  state::ClusterState& state;
  sim::Physics& physics;
  std::vector<JobId> changed;

  bool start(JobId job, Time t) {
    std::vector<GpuId> gpus;
    for (uint32_t g = 0; g < cluster.gpu_count() && gpus.size() < state.spec(job).gpus; ++g) {
      if (!state.gpu_owner(GpuId(g)).valid()) {
        gpus.push_back(GpuId(g));
      }
    }
    if (gpus.size() < state.spec(job).gpus) {
      return false;
    }
    physics.settle(gpus, t);
    EXPECT_TRUE(state.start(job, gpus, t).is_ok());
    physics.on_start(job, t, changed);
    return true;
  }

  void stop(JobId job, Time t, bool tell_physics = true) {
    const std::vector<GpuId> gpus = state.record(job).gpus;
    physics.settle(gpus, t);
    EXPECT_TRUE(state.finish(job, t).is_ok());
    if (tell_physics) {
      physics.on_stop(job, gpus, t, changed);
    }
  }
};

// A random run on cluster `c`: kJobs random jobs (seeded by `rng`) all submitted at 0, then steps
// that each stop a random running job or start the next one (stops only once every job started).
struct RandomRun {
  RandomRun(const Cluster& c, std::mt19937_64& rng)
      : jobs(random_jobs(rng)), state(c, jobs.jobs(), jobs.symbols()), physics(state, all_models()),
        driver{c, state, physics, {}} {
    for (uint32_t j = 0; j < kJobs; ++j) {
      EXPECT_TRUE(state.submit(JobId(j), Time()).is_ok());
    }
  }

  void step(std::mt19937_64& rng, Time t) {
    if (!running.empty() && (next == kJobs || rng() % 2 == 0)) {
      const size_t k = rng() % running.size();
      driver.stop(running[k], t);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    } else if (next < kJobs && driver.start(JobId(next), t)) {
      running.push_back(JobId(next++));
    }
  }

  testing::JobListBuilder jobs;
  state::ClusterState state;
  sim::Physics physics;
  Driver driver;
  std::vector<JobId> running;
  uint32_t next = 0;
};

TEST(PhysicsLoads, KeptLoadsEqualTheOwnersOnRandomRuns) {
  const Cluster c = testing::uniform_cluster(2, 4, 8);  // 64 GPUs
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    RandomRun run(c, rng);
    for (int step = 1; step <= 200; ++step) {
      run.step(rng, Time() + Duration::seconds(step));
      const Status st = run.physics.check_gpu_loads();
      ASSERT_TRUE(st.is_ok()) << "seed " << seed << ", step " << step << ": " << st.message();
    }
  }
}

// The check can fail: a stop the physics is not told of leaves its GPUs' loads behind.
TEST(PhysicsLoads, CheckCatchesAStopThePhysicsMissed) {
  const Cluster c = testing::uniform_cluster(1, 1, 8);
  std::mt19937_64 rng(1);
  testing::JobListBuilder jobs = random_jobs(rng);
  state::ClusterState state(c, jobs.jobs(), jobs.symbols());
  sim::Physics physics(state, all_models());
  Driver d{c, state, physics, {}};
  ASSERT_TRUE(state.submit(JobId(0), Time()).is_ok());
  ASSERT_TRUE(d.start(JobId(0), Time() + Duration::seconds(1)));
  ASSERT_TRUE(physics.check_gpu_loads().is_ok());
  d.stop(JobId(0), Time() + Duration::seconds(2), /*tell_physics=*/false);
  const Status st = physics.check_gpu_loads();
  ASSERT_FALSE(st.is_ok());
  EXPECT_NE(st.message().find("GPU 0 keeps activity"), std::string::npos) << st.message();
}

// Hot air racks that throttle (inlet 36 °C; rack 0 cooled for 5 kW, so its inlet rises with its
// draw), rack 1 with an electrical limit and the zone with a power cap that bind when busy, so
// clocks and caps move as well as activities.
Cluster throttling_capped_cluster() {
  Cluster c = testing::hot_air_cluster(3, 4, 8, 36);  // 96 GPUs
  c.racks[0].cooling_limit_kw = 5;
  c.racks[1].power_limit_kw = 9;
  c.zones[0].power_cap_kw = 30;
  return c;
}

// The rack checks due by t, in time order, as the engine's heap would hand them over.
void run_rack_events(sim::Physics& physics, std::vector<sim::RackEvent>& pending, Time t, std::vector<JobId>& changed) {
  pending.insert(pending.end(), physics.events().begin(), physics.events().end());
  physics.clear_events();
  std::sort(pending.begin(), pending.end(), [](const auto& a, const auto& b) { return a.at < b.at; });
  while (!pending.empty() && pending.front().at <= t) {
    const sim::RackEvent e = pending.front();
    pending.erase(pending.begin());
    physics.on_rack_event(e, changed);
    pending.insert(pending.end(), physics.events().begin(), physics.events().end());
    physics.clear_events();
    std::sort(pending.begin(), pending.end(), [](const auto& a, const auto& b) { return a.at < b.at; });
  }
}

TEST(PhysicsNodeSums, KeptSumsEqualThePlainSumOnRandomRunsThatThrottleAndCap) {
  const Cluster c = throttling_capped_cluster();
  uint64_t checked = 0;
  double throttled_gpu_hours = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    std::mt19937_64 rng(seed);
    RandomRun run(c, rng);
    std::vector<sim::RackEvent> pending;
    Time t;
    for (int step = 1; step <= 300; ++step) {
      t = t + Duration::seconds(rng() % 4 == 0 ? 0 : static_cast<int64_t>(1 + rng() % 900));  // repeats at an instant too
      run_rack_events(run.physics, pending, t, run.driver.changed);
      run.step(rng, t);
      const Result<uint32_t> kept = run.physics.check_node_sums();
      ASSERT_TRUE(kept.is_ok()) << "seed " << seed << ", step " << step << ": " << kept.status().message();
      checked += *kept;
    }
    run.physics.advance(t);
    throttled_gpu_hours += run.physics.totals().throttled_gpu_hours;
  }
  EXPECT_GT(checked, 10000u);             // kept sums were there to check
  EXPECT_GT(throttled_gpu_hours, 0.0);  // clocks moved
}

}  // namespace
}  // namespace boreas
