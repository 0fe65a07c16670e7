// The live daemon keeps one ClusterState for its whole life and one policy object on it: each job
// it accepts is appended to the state's job table (add_job), and waiting jobs are held and released.
// A policy that keeps per-job structures across rounds must follow the growing table exactly as it
// follows a state that had every job from the start (the twin's), and never start a held job.

#include <gtest/gtest.h>

#include <random>

#include "policy/registry.h"
#include "state/cluster_state.h"
#include "state/cluster_view.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

constexpr uint32_t kJobs = 60;
constexpr int64_t kSteps = 400;  // seconds, one round each

testing::JobListBuilder seeded_jobs() {
  testing::JobListBuilder jobs;
  std::mt19937 rng(17);
  const uint32_t sizes[] = {1, 1, 2, 4, 8};
  for (uint32_t i = 0; i < kJobs; ++i) {
    jobs.add(i / 2, sizes[rng() % 5], 3 + static_cast<int64_t>(rng() % 40), i % 3 == 0 ? "a" : "b");
  }
  return jobs;
}

bool held_from_arrival(uint32_t job) { return job % 7 == 3; }  // released 5 s after it arrives

struct Run {
  state::ClusterState state;
  std::unique_ptr<policy::Scheduler> scheduler;
};

std::string plan_text(const policy::Plan& plan) {
  std::string out;
  for (JobId j : plan.preemptions) {
    out += "preempt " + std::to_string(j.value()) + "\n";
  }
  for (const policy::Start& s : plan.starts) {
    out += "start " + std::to_string(s.job.value()) + " on";
    for (GpuId g : s.gpus) {
      out += " " + std::to_string(g.value());
    }
    out += "\n";
  }
  return out;
}

// The same events into both states: ends due at t, arrivals at t (added first to the grown one),
// holds and releases.
void feed(Run& r, std::span<const JobSpec> jobs, bool grows, Time t) {
  std::vector<JobId> done;
  for (JobId j : r.state.running()) {
    if (r.state.remaining_at(j, t) <= Duration::zero()) {
      done.push_back(j);
    }
  }
  std::sort(done.begin(), done.end());
  for (JobId j : done) {
    ASSERT_TRUE(r.state.finish(j, t).is_ok());
  }
  for (const JobSpec& s : jobs) {
    if (s.submit == t) {
      if (grows) {
        ASSERT_EQ(r.state.add_job(s), s.id);
      }
      ASSERT_TRUE(r.state.submit(s.id, t).is_ok());
      if (held_from_arrival(s.id.value())) {
        ASSERT_TRUE(r.state.hold(s.id).is_ok());
      }
    } else if (held_from_arrival(s.id.value()) && s.submit + Duration::seconds(5) == t) {
      ASSERT_TRUE(r.state.release(s.id).is_ok());
    }
  }
}

void apply(Run& r, const policy::Plan& plan, Time t) {
  for (JobId j : plan.preemptions) {
    ASSERT_TRUE(r.state.preempt(j, t).is_ok());
  }
  for (const policy::Start& s : plan.starts) {
    ASSERT_FALSE(r.state.record(s.job).held) << "a held job was planned: " << s.job.value();
    ASSERT_TRUE(r.state.start(s.job, s.gpus, t).is_ok());
  }
}

// Returns how many starts the run made (the scenario must exercise the policy).
size_t compare(const policy::PolicyRegistry& registry, const std::string& policy, const std::string& placement) {
  const Cluster cluster = testing::uniform_cluster(2, 2, 4);
  testing::JobListBuilder jobs = seeded_jobs();
  policy::PolicyOptions options;
  options.placement = placement;
  auto a = registry.make(policy, options);
  auto b = registry.make(policy, options);
  EXPECT_TRUE(a.is_ok() && b.is_ok());
  if (!a.is_ok() || !b.is_ok()) {
    return 0;
  }
  Run grown{state::ClusterState(cluster, {}, jobs.symbols()), std::move(*a)};
  Run fresh{state::ClusterState(cluster, jobs.jobs(), jobs.symbols()), std::move(*b)};
  size_t starts = 0;
  for (int64_t s = 0; s < kSteps && !::testing::Test::HasFatalFailure(); ++s) {
    const Time t = Time::from_seconds(s);
    feed(grown, jobs.jobs(), true, t);
    feed(fresh, jobs.jobs(), false, t);
    const policy::Plan pa = grown.scheduler->schedule(state::ClusterView(grown.state, t));
    const policy::Plan pb = fresh.scheduler->schedule(state::ClusterView(fresh.state, t));
    EXPECT_EQ(plan_text(pa), plan_text(pb)) << "at " << s << " s";
    if (plan_text(pa) != plan_text(pb)) {
      return starts;
    }
    apply(grown, pa, t);
    apply(fresh, pb, t);
    starts += pa.starts.size();
  }
  EXPECT_TRUE(grown.state.check_invariants().is_ok());
  EXPECT_EQ(grown.state.finished().size(), fresh.state.finished().size());
  EXPECT_EQ(grown.state.job_count(), kJobs);
  return starts;
}

TEST(GrownState, EveryPolicyFollowsAGrowingTableAsAFullOne) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  for (const std::string& name : registry.policy_names()) {
    SCOPED_TRACE(name);
    EXPECT_GE(compare(registry, name, "count"), kJobs) << "every job starts at least once";
  }
}

TEST(GrownState, EveryPlacementFollowsAGrowingTableAsAFullOne) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  for (const std::string& name : registry.placement_names()) {
    SCOPED_TRACE(name);
    EXPECT_GE(compare(registry, "las", name), kJobs) << "every job starts at least once";
  }
}

}  // namespace
}  // namespace boreas
