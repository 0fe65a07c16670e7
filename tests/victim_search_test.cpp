// The shortcuts of the victim search (policy/preemption.cpp, boreas_admit.cpp) change no decision:
// the placements they rely on are monotone (more free GPUs never make a gang fail), a search with
// the proofs equals the full search (victims, GPUs and the scratch it leaves), and the `boreas`
// policy with the proofs and its memo of failed reclaims plans every round as without them.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include "config/cluster_spec.h"
#include "policy/boreas_policy.h"
#include "policy/explain.h"
#include "policy/placement.h"
#include "policy/placement_topo.h"
#include "policy/preemption.h"
#include "state/cluster_view.h"
#include "support/arrivals.h"
#include "support/boreas_runs.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

using PlacementFactory = std::function<std::unique_ptr<policy::Placement>()>;

// Random jobs started on random free GPUs (scattered, as after many starts and ends), with one
// half of the cluster of a second GPU type.
struct RandomState {
  Cluster cluster;
  testing::JobListBuilder jobs;
  std::unique_ptr<state::ClusterState> state;
};

RandomState random_state(std::mt19937& rng) {
  RandomState r;
  r.cluster = testing::uniform_cluster(3, 3, 8);
  GpuType second;
  second.name = "TEST2";
  r.cluster.catalog.add(second);
  for (Node& n : r.cluster.nodes) {
    n.gpu_type = n.rack.value() == 2 ? GpuTypeId(1) : GpuTypeId(0);
  }
  const char* queues[] = {"a", "b", "c"};
  for (int i = 0; i < 60; ++i) {
    r.jobs.add(0, 1 + rng() % (rng() % 4 == 0 ? 20 : 4), 10, queues[rng() % 3]);
    if (rng() % 5 == 0) {
      r.jobs.jobs().back().gpu_types = r.jobs.symbols().intern("TEST2");
    }
  }
  r.state = std::make_unique<state::ClusterState>(r.cluster, r.jobs.jobs(), r.jobs.symbols());
  for (uint32_t j = 0; j < r.jobs.jobs().size(); ++j) {
    (void)r.state->submit(JobId(j), Time::zero());
  }
  const uint32_t running = 10 + static_cast<uint32_t>(rng() % 30);
  for (uint32_t j = 0; j < running; ++j) {
    std::vector<GpuId> free;
    for (uint32_t g = 0; g < r.state->total_gpus(); ++g) {
      if (r.state->gpu_free(GpuId(g))) {
        free.push_back(GpuId(g));
      }
    }
    std::shuffle(free.begin(), free.end(), rng);
    if (free.size() >= r.jobs.jobs()[j].gpus) {
      free.resize(r.jobs.jobs()[j].gpus);
      (void)r.state->start(JobId(j), free, Time::zero());
    }
  }
  return r;
}

std::vector<JobId> running_jobs(const state::ClusterState& s) {
  return std::vector<JobId>(s.running().begin(), s.running().end());
}

// The first counterexample to monotonicity of `make()` on random states: a pending gang it places
// with some running jobs' GPUs released but not with more of them released; empty when none.
std::string monotone_counterexample(const PlacementFactory& make, uint32_t seeds, uint64_t& placed) {
  for (uint32_t seed = 1; seed <= seeds; ++seed) {
    std::mt19937 rng(seed);
    RandomState r = random_state(rng);
    const state::ClusterView view(*r.state, Time::zero());
    const std::vector<JobId> running = running_jobs(*r.state);
    auto placement = make();
    for (JobId pending : r.state->pending()) {
      policy::Scratch fewer(view);
      std::vector<JobId> more_only;
      for (JobId v : running) {
        if (rng() % 4 == 0) {
          fewer.release(r.state->record(v).gpus);
        } else if (rng() % 3 == 0) {
          more_only.push_back(v);
        }
      }
      policy::Scratch more = fewer;
      for (JobId v : more_only) {
        more.release(r.state->record(v).gpus);
      }
      const JobSpec& spec = r.state->spec(pending);
      const bool with_fewer = placement->place(spec, fewer).has_value();
      placed += with_fewer ? 1 : 0;
      if (with_fewer && !placement->place(spec, more).has_value()) {
        return "seed " + std::to_string(seed) + ": job " + std::to_string(pending.value()) + " (" +
               std::to_string(spec.gpus) + " GPUs) fits " + std::to_string(fewer.total_free()) +
               " free GPUs but not " + std::to_string(more.total_free());
      }
    }
  }
  return "";
}

TEST(MonotonePlacementProperty, TheNamedPlacementsNeverFailWithMoreFree) {
  const std::pair<const char*, PlacementFactory> placements[] = {
      {"count", policy::make_count_placement},
      {"first-fit", policy::make_first_fit_placement},
      {"pack", policy::make_pack_placement},
      {"consolidated", policy::make_consolidated_placement},
  };
  for (const auto& [name, make] : placements) {
    EXPECT_TRUE(policy::placement_is_monotone(make()->name())) << name;
    uint64_t placed = 0;
    EXPECT_EQ(monotone_counterexample(make, 40, placed), "") << name;
    EXPECT_GT(placed, 200u) << name;  // gangs that fit: the property had cases to hold on
  }
}

// Places a gang only while at most `limit` GPUs are free: not monotone.
class FitsOnlyWhenBusy final : public policy::Placement {
 public:
  explicit FitsOnlyWhenBusy(uint32_t limit) : limit_(limit), inner_(policy::make_count_placement()) {}
  std::string_view name() const override { return "busy-only"; }
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const policy::Scratch& s) override {
    return s.total_free() > limit_ ? std::nullopt : inner_->place(job, s);
  }

 private:
  uint32_t limit_;
  std::unique_ptr<policy::Placement> inner_;
};

TEST(MonotonePlacementProperty, CatchesAPlacementThatIsNot) {
  uint64_t placed = 0;
  EXPECT_NE(monotone_counterexample([] { return std::make_unique<FitsOnlyWhenBusy>(40); }, 40, placed), "");
  EXPECT_FALSE(policy::placement_is_monotone("busy-only"));
  EXPECT_FALSE(policy::placement_is_monotone("topo"));
}

// A filter like the boreas policy's: each queue gives up at most a random budget of GPUs, so it
// grows stricter as victims are chosen.
std::vector<uint32_t> random_budget(std::mt19937& rng) {
  std::vector<uint32_t> budget(8);
  for (uint32_t& b : budget) {
    b = static_cast<uint32_t>(rng() % 24);
  }
  return budget;
}

policy::VictimFilter budget_filter(const state::ClusterState& s, const std::vector<uint32_t>& budget) {
  return [&s, budget](const std::vector<JobId>& chosen, JobId c) {
    const uint32_t q = s.spec(c).queue.index() % 8;
    uint32_t taken = s.spec(c).gpus;
    for (JobId v : chosen) {
      taken += s.spec(v).queue.index() % 8 == q ? s.spec(v).gpus : 0;
    }
    return taken <= budget[q];
  };
}

// The same budgets, growing: the GPUs joined so far by queue.
class GrowingBudget final : public policy::GrowingVictimFilter {
 public:
  GrowingBudget(const state::ClusterState& s, std::vector<uint32_t> budget) : s_(s), budget_(std::move(budget)) {}
  void restart() override { taken_.assign(budget_.size(), 0); }
  bool admits(JobId c) override {
    const uint32_t q = s_.spec(c).queue.index() % 8;
    return taken_[q] + s_.spec(c).gpus <= budget_[q];
  }
  void join(JobId v) override { taken_[s_.spec(v).queue.index() % 8] += s_.spec(v).gpus; }

 private:
  const state::ClusterState& s_;
  std::vector<uint32_t> budget_;
  std::vector<uint32_t> taken_;
};

std::string scratch_text(const policy::Scratch& s) {
  std::string out = std::to_string(s.total_free()) + " free; touched";
  for (NodeId n : s.touched_nodes()) {
    out += " " + std::to_string(n.value()) + ":" + std::to_string(s.node_free(n));
  }
  return out;
}

std::string eviction_text(const std::optional<policy::Eviction>& ev) {
  if (!ev) {
    return "none";
  }
  std::string out = "victims";
  for (JobId v : ev->victims) {
    out += " " + std::to_string(v.value());
  }
  out += "; gpus";
  for (GpuId g : ev->gpus) {
    out += " " + std::to_string(g.value());
  }
  return out;
}

// One random victim search: a budget filter, a cap on victims, and about half the running jobs
// (none already evicted) as candidates.
struct SearchCase {
  policy::VictimFilter may_add;
  std::shared_ptr<GrowingBudget> growing;  // the same answers as may_add
  uint32_t max_victims = 0;
  std::vector<JobId> cands;
};

SearchCase random_case(std::mt19937& rng, const state::ClusterState& s, const std::vector<JobId>& running,
                       const std::vector<JobId>& evicted) {
  SearchCase c;
  const std::vector<uint32_t> budget = random_budget(rng);
  c.may_add = budget_filter(s, budget);
  c.growing = std::make_shared<GrowingBudget>(s, budget);
  c.max_victims = static_cast<uint32_t>(1 + rng() % 6);
  for (JobId v : running) {
    if (rng() % 2 == 0 && std::find(evicted.begin(), evicted.end(), v) == evicted.end()) {
      c.cands.push_back(v);
    }
  }
  return c;
}

TEST(VictimSearchProperty, ProofsChooseAsTheFullSearchDoes) {
  const PlacementFactory placements[] = {policy::make_count_placement, policy::make_first_fit_placement,
                                         policy::make_pack_placement, policy::make_consolidated_placement};
  uint64_t found = 0, refused = 0;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed);
    RandomState r = random_state(rng);
    const state::ClusterView view(*r.state, Time::from_seconds(100));
    const std::vector<JobId> running = running_jobs(*r.state);
    for (const PlacementFactory& make : placements) {
      auto placement = make();
      policy::Scratch full(view), proved(view);
      std::vector<JobId> evicted;
      for (JobId pending : r.state->pending()) {
        const SearchCase c = random_case(rng, *r.state, running, evicted);
        const JobSpec& spec = r.state->spec(pending);
        const auto a = policy::choose_victims(spec, c.cands, c.max_victims, *placement, full, c.may_add, false);
        const auto b = policy::choose_victims(spec, c.cands, c.max_victims, *placement, proved, c.may_add, true);
        ASSERT_EQ(eviction_text(a), eviction_text(b)) << "seed " << seed << " job " << pending.value();
        ASSERT_EQ(scratch_text(full), scratch_text(proved)) << "seed " << seed << " job " << pending.value();
        (a ? found : refused) += 1;
        if (a) {
          evicted.insert(evicted.end(), a->victims.begin(), a->victims.end());
        }
      }
    }
  }
  EXPECT_GT(found, 200u);    // searches that found victims
  EXPECT_GT(refused, 200u);  // and searches that proved there were none
}

// The boreas policy with the proofs and the memo against the same policy without them (its
// placement under a name placement_is_monotone does not know): the same plan every round and the
// same pending reasons, on random runs with borrowing and reclaim.
class Renamed final : public policy::Placement {
 public:
  explicit Renamed(std::unique_ptr<policy::Placement> inner) : inner_(std::move(inner)) {}
  std::string_view name() const override { return "renamed"; }
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const policy::Scratch& s) override {
    return inner_->place(job, s);
  }

 private:
  std::unique_ptr<policy::Placement> inner_;
};

// A scratch with some random GPUs claimed and some running jobs' GPUs released, as mid-round.
void random_round_changes(std::mt19937& rng, const state::ClusterState& st, const std::vector<JobId>& running,
                          std::vector<JobId>& released, policy::Scratch& s) {
  std::vector<GpuId> free;
  for (uint32_t g = 0; g < st.total_gpus(); ++g) {
    if (st.gpu_free(GpuId(g)) && rng() % 3 == 0) {
      free.push_back(GpuId(g));
    }
  }
  s.claim(free);
  for (JobId v : running) {
    if (rng() % 6 == 0) {
      s.release(st.record(v).gpus);
      released.push_back(v);
    }
  }
}

// The search as it was before greedy released its sets incrementally (place7): each set tried is
// released, placed and claimed back whole. The reference for the search below.
namespace plain_search {

bool fits_without(const JobSpec& job, const std::vector<JobId>& victims, policy::Placement& p, policy::Scratch& s) {
  for (JobId v : victims) {
    s.release(s.view().record(v).gpus);
  }
  const bool ok = p.place(job, s).has_value();
  for (JobId v : victims) {
    s.claim(s.view().record(v).gpus);
  }
  return ok;
}

// Drops each victim without which the gang still fits, the first added first.
std::vector<JobId> pruned(const JobSpec& job, std::vector<JobId> victims, policy::Placement& p, policy::Scratch& s) {
  size_t i = 0;
  while (victims.size() > 1 && i < victims.size()) {
    std::vector<JobId> without = victims;
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
    const bool needed = !fits_without(job, without, p, s);
    victims = needed ? victims : without;
    i += needed ? 1 : 0;
  }
  return victims;
}

// Largest gangs first, each the filter admits joins until the gang fits; then pruned.
std::optional<std::vector<JobId>> greedy(const JobSpec& job, std::vector<JobId> cands, uint32_t max_victims,
                                         policy::Placement& p, policy::Scratch& s, const policy::VictimFilter& may_add) {
  const auto& v = s.view();
  std::stable_sort(cands.begin(), cands.end(), [&](JobId a, JobId b) { return v.spec(a).gpus > v.spec(b).gpus; });
  std::vector<JobId> set;
  for (JobId c : cands) {
    if (set.size() < max_victims && may_add(set, c)) {
      set.push_back(c);
      if (fits_without(job, set, p, s)) {
        return pruned(job, set, p, s);
      }
    }
  }
  return std::nullopt;
}

// choose_victims without proofs, candidates in the loss order choose_victims sorts them in
// (preemptions, then lost work × GPUs).
std::optional<policy::Eviction> choose(const JobSpec& job, std::vector<JobId> cands, uint32_t max_victims,
                                       policy::Placement& p, policy::Scratch& s, const policy::VictimFilter& may_add) {
  std::erase_if(cands, [&](JobId c) { return !may_add({}, c); });
  if (cands.empty() || max_victims == 0) {
    return std::nullopt;
  }
  const auto& v = s.view();
  std::stable_sort(cands.begin(), cands.end(), [&](JobId a, JobId b) {
    const auto ka = std::make_pair(v.record(a).preemptions, policy::lost_work(a, v) * v.spec(a).gpus);
    const auto kb = std::make_pair(v.record(b).preemptions, policy::lost_work(b, v) * v.spec(b).gpus);
    return ka < kb;
  });
  std::optional<std::vector<JobId>> victims;
  for (JobId c : cands) {
    if (may_add({}, c) && fits_without(job, {c}, p, s)) {
      victims = std::vector<JobId>{c};
      break;
    }
  }
  if (!victims) {
    victims = greedy(job, cands, max_victims, p, s, may_add);
  }
  if (!victims) {
    return std::nullopt;
  }
  for (JobId c : *victims) {
    s.release(v.record(c).gpus);
  }
  auto gpus = p.place(job, s);
  if (!gpus) {
    for (JobId c : *victims) {
      s.claim(v.record(c).gpus);
    }
    return std::nullopt;
  }
  s.claim(*gpus);
  return policy::Eviction{std::move(*victims), std::move(*gpus)};
}

}  // namespace plain_search

// choose_victims (greedy's sets released one candidate at a time, the filter asked growing on
// every third seed) against the plain search, on random mid-round scratches: the same victims,
// GPUs and scratch left, for topo (not monotone: every set is placed), consolidated and pack, with
// and without the proofs.
TEST(VictimSearchProperty, IncrementalSearchChoosesAsThePlainOne) {
  const char* names[] = {"topo", "consolidated", "pack"};
  auto make = [](int i) -> std::unique_ptr<policy::Placement> {
    if (i == 0) {
      return policy::make_topo_placement(policy::TopoOptions{});
    }
    return i == 1 ? policy::make_consolidated_placement() : policy::make_pack_placement();
  };
  for (int i = 0; i < 3; ++i) {
    uint64_t found = 0, refused = 0, greedy_found = 0;
    for (uint32_t seed = 1; seed <= 80; ++seed) {
      std::mt19937 rng(seed);
      RandomState r = random_state(rng);
      const state::ClusterView view(*r.state, Time::from_seconds(100 + 50 * (seed % 4)));
      const std::vector<JobId> running = running_jobs(*r.state);
      auto fast = make(i);
      auto plain = make(i);
      const bool monotone = i > 0 && seed % 2 == 0;
      policy::Scratch a(view);
      std::vector<JobId> evicted;
      random_round_changes(rng, *r.state, running, evicted, a);
      policy::Scratch b = a;
      for (JobId pending : r.state->pending()) {
        const SearchCase c = random_case(rng, *r.state, running, evicted);
        const JobSpec& spec = r.state->spec(pending);
        policy::GrowingVictimFilter* growing = seed % 3 == 0 ? c.growing.get() : nullptr;
        const auto got = policy::choose_victims(spec, c.cands, c.max_victims, *fast, a, c.may_add, monotone, growing);
        const auto want = plain_search::choose(spec, c.cands, c.max_victims, *plain, b, c.may_add);
        ASSERT_EQ(eviction_text(got), eviction_text(want)) << names[i] << " seed " << seed << " job " << pending.value();
        ASSERT_EQ(scratch_text(a), scratch_text(b)) << names[i] << " seed " << seed << " job " << pending.value();
        (got ? found : refused) += 1;
        greedy_found += got && got->victims.size() > 1 ? 1 : 0;
        if (got) {
          evicted.insert(evicted.end(), got->victims.begin(), got->victims.end());
        }
      }
    }
    EXPECT_GT(found, 100u) << names[i];
    EXPECT_GT(greedy_found, 15u) << names[i];  // sets of several victims: greedy found them
    EXPECT_GT(refused, 100u) << names[i];
  }
}

constexpr const char* kTree =
    "priority_classes:\n"
    "  - {name: high, value: 10}\n"
    "  - {name: low, value: 1}\n"
    "queues:\n"
    "  - {name: a, quotas: [{gpu: '*', guaranteed: 24}]}\n"
    "  - {name: b, quotas: [{gpu: '*', guaranteed: 16}]}\n"
    "  - {name: c, quotas: [{gpu: '*', guaranteed: 8}]}\n";

struct RunCounts {
  uint64_t rounds = 0, preempted = 0;
};

void compare_run(uint32_t seed, const PlacementFactory& make, RunCounts& counts) {
  const Cluster cluster = testing::uniform_cluster(2, 3, 8);
  auto tree = config::load_queues_string(kTree, "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  std::mt19937 rng(seed);
  testing::JobListBuilder jobs;
  const char* queues[] = {"a", "b", "c"};
  const char* classes[] = {"high", "low"};
  for (int i = 0; i < 240; ++i) {
    jobs.add(i / 3, rng() % 4 == 0 ? 8 + 8 * (rng() % 2) : 1 + rng() % 4, 50, queues[rng() % 3]);
    jobs.jobs().back().priority_class = jobs.symbols().intern(classes[rng() % 2]);
  }
  policy::TenancyOptions options;
  options.queues = std::make_shared<QueueTree>(*tree);
  options.preemption.min_runtime = Duration::zero();
  policy::BoreasScheduler proved(options, make());
  policy::BoreasScheduler full(options, std::make_unique<Renamed>(make()));
  full.set_shortcuts(false);  // nor the other shortcuts (the reclaim filter asked growing among them)
  state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
  policy::ReasonBook full_reasons, proved_reasons;
  for (int64_t t = 0; t < 120; ++t) {
    const Time now = Time::from_seconds(t);
    const Status arrived = testing::submit_arrivals(s, jobs.jobs(), now);
    ASSERT_TRUE(arrived.is_ok()) << arrived.message();
    const state::ClusterView view(s, now);
    const policy::Plan a = full.schedule(view), b = proved.schedule(view);
    ASSERT_EQ(testing::round_difference(a, b, full_reasons, proved_reasons, s.job_count()), "")
        << "seed " << seed << " at " << t << " s";
    ASSERT_TRUE(testing::apply_plan(s, a, now).is_ok());
    counts.rounds += 1;
    counts.preempted += a.preemptions.size();
    std::vector<JobId> running(s.running().begin(), s.running().end());
    for (JobId j : running) {
      if (rng() % 8 == 0) {
        ASSERT_TRUE(s.finish(j, now).is_ok());
      }
    }
  }
}

TEST(BoreasVictimSearchProperty, ProofsAndMemoPlanAsTheFullSearch) {
  for (const PlacementFactory& make : {PlacementFactory(policy::make_consolidated_placement),
                                       PlacementFactory(policy::make_pack_placement)}) {
    RunCounts counts;
    for (uint32_t seed = 1; seed <= 8; ++seed) {
      compare_run(seed, make, counts);
    }
    EXPECT_EQ(counts.rounds, 8u * 120u);
    EXPECT_GT(counts.preempted, 20u);  // reclaims happened: the searches found victims too
  }
}

}  // namespace
}  // namespace boreas

namespace boreas {
namespace {

// Hand-checked: a start between two reclaims of the same gang in one round lets the second one
// find victims, so a failed reclaim is not remembered across a start. Two nodes of 4 GPUs; queue
// b (guaranteed 2) runs b2 covered and b3, b4 borrowed, 3 GPUs in all, so reclaim may take only
// one of b3 and b4 (a second would take b below its guarantee). The gang g (queue a, 4 GPUs,
// owed) needs b3's and b4's node whole: its reclaim in the guarantee pass fails. Then j (queue b,
// high class, 1 GPU) starts on the other node's free GPU: b holds 4 GPUs, both borrowers may go,
// and g, tried again in the next pass, evicts b3 and b4 and starts on their node.
TEST(BoreasVictimSearch, AStartBetweenTwoReclaimsLetsTheSecondFindVictims) {
  const Cluster cluster = testing::uniform_cluster(1, 2, 4);
  auto tree = config::load_queues_string(
      "priority_classes:\n"
      "  - {name: high, value: 10}\n"
      "  - {name: low, value: 1}\n"
      "queues:\n"
      "  - {name: a, quotas: [{gpu: '*', guaranteed: 4}]}\n"
      "  - {name: b, quotas: [{gpu: '*', guaranteed: 2}]}\n"
      "  - {name: f, quotas: [{gpu: '*', guaranteed: 2}]}\n",
      "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  testing::JobListBuilder jobs;
  jobs.add(0, 2, 1000, "f").add(0, 2, 1000, "f");                        // z0, z1: fillers
  jobs.add(0, 1, 1000, "b").add(0, 1, 1000, "b").add(0, 1, 1000, "b").add(0, 1, 1000, "b");  // b1..b4
  jobs.add(10, 4, 1000, "a").add(10, 1, 1000, "b");                      // g, j
  for (JobSpec& spec : jobs.jobs()) {
    spec.priority_class = jobs.symbols().intern(spec.id.value() == 7 ? "high" : "low");
  }
  const JobId z0(0), z1(1), b1(2), b3(4), b4(5), g(6), j(7);
  policy::TenancyOptions options;
  options.queues = std::make_shared<QueueTree>(*tree);
  policy::BoreasScheduler scheduler(options, policy::make_consolidated_placement());
  state::ClusterState s(cluster, jobs.jobs(), jobs.symbols());
  const Time t0 = Time::zero(), t1 = Time::from_seconds(10);
  for (uint32_t i = 0; i < 6; ++i) {
    ASSERT_TRUE(s.submit(JobId(i), t0).is_ok());
  }
  const std::vector<GpuId> z0_gpus{GpuId(2), GpuId(3)}, z1_gpus{GpuId(6), GpuId(7)};
  ASSERT_TRUE(s.start(z0, z0_gpus, t0).is_ok());
  ASSERT_TRUE(s.start(z1, z1_gpus, t0).is_ok());
  const policy::Plan first = scheduler.schedule(state::ClusterView(s, t0));
  ASSERT_EQ(first.starts.size(), 4u);  // b1, b2 inside b's guarantee; b3, b4 borrowed
  for (const policy::Start& st : first.starts) {
    ASSERT_TRUE(s.start(st.job, st.gpus, t0).is_ok());
  }
  // b1, b2 share a node (best fit), b3, b4 the other; the filler beside b3 and b4 ends, and b1.
  const NodeId borrowed_node = s.node_of(s.record(b3).gpus.front());
  ASSERT_EQ(s.node_of(s.record(b4).gpus.front()), borrowed_node);
  ASSERT_TRUE(s.finish(s.node_of(GpuId(2)) == borrowed_node ? z0 : z1, t1).is_ok());
  ASSERT_TRUE(s.finish(b1, t1).is_ok());
  ASSERT_TRUE(s.submit(g, t1).is_ok());
  ASSERT_TRUE(s.submit(j, t1).is_ok());

  const policy::Plan plan = scheduler.schedule(state::ClusterView(s, t1));
  std::vector<JobId> preempted = plan.preemptions;
  std::sort(preempted.begin(), preempted.end());
  EXPECT_EQ(preempted, (std::vector<JobId>{b3, b4}));
  ASSERT_EQ(plan.starts.size(), 2u);
  EXPECT_EQ(plan.starts[0].job, j);
  EXPECT_EQ(plan.starts[1].job, g);
  std::vector<GpuId> expected;
  for (uint32_t i = 0; i < 4; ++i) {
    expected.push_back(GpuId(4 * borrowed_node.value() + i));
  }
  std::vector<GpuId> got = plan.starts[1].gpus;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
}

}  // namespace
}  // namespace boreas
