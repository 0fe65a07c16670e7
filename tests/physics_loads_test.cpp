// Property: the per-GPU activity and charged queue that the engine's physics keeps on start and
// stop (src/sim/physics_loads.cpp) equal what the GPUs' owners say, after every step of random runs.
#include <gtest/gtest.h>

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

TEST(PhysicsLoads, KeptLoadsEqualTheOwnersOnRandomRuns) {
  const Cluster c = testing::uniform_cluster(2, 4, 8);  // 64 GPUs
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    testing::JobListBuilder jobs = random_jobs(rng);
    state::ClusterState state(c, jobs.jobs(), jobs.symbols());
    sim::Physics physics(state, all_models());
    Driver d{c, state, physics, {}};
    std::vector<JobId> running;
    for (uint32_t j = 0; j < kJobs; ++j) {
      ASSERT_TRUE(state.submit(JobId(j), Time()).is_ok());
    }
    uint32_t next = 0;
    for (int step = 1; step <= 200; ++step) {
      const Time t = Time() + Duration::seconds(step);
      if (!running.empty() && (next == kJobs || rng() % 2 == 0)) {
        const size_t k = rng() % running.size();
        d.stop(running[k], t);
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      } else if (next < kJobs && d.start(JobId(next), t)) {
        running.push_back(JobId(next++));
      }
      const Status st = physics.check_gpu_loads();
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

}  // namespace
}  // namespace boreas
