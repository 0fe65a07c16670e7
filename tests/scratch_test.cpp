// Scratch (policy/scratch.h) against a plain overlay — a free flag per GPU, counts per node and
// rack recounted, touched nodes in first-touch order — on random claims, releases, forgets,
// touches, trials, copies and fresh scratches made on a used one's storage, on nodes whose overrides fit the per-node mask (8 GPUs) and nodes past it
// (70 GPUs).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include "policy/placement.h"
#include "policy/scratch.h"
#include "state/cluster_state.h"
#include "support/cluster_builder.h"

namespace boreas {
namespace {

// The plain overlay: every GPU's free flag, the touched nodes in order.
struct Plain {
  std::vector<bool> free;
  std::vector<NodeId> touched;
};

Plain plain_of(const state::ClusterState& s) {
  Plain p;
  for (uint32_t g = 0; g < s.total_gpus(); ++g) {
    p.free.push_back(s.gpu_free(GpuId(g)));
  }
  return p;
}

void plain_change(Plain& p, const state::ClusterState& s, GpuId g, bool now_free) {
  p.free[g.value()] = now_free;
  const NodeId n = s.node_of(g);
  if (std::find(p.touched.begin(), p.touched.end(), n) == p.touched.end()) {
    p.touched.push_back(n);
  }
}

// The first difference between the scratch and the plain overlay; empty when none.
std::string difference(const policy::Scratch& s, const Plain& p, const state::ClusterState& st) {
  const Cluster& c = st.cluster();
  uint32_t total = 0;
  std::vector<uint32_t> rack_free(c.racks.size(), 0);
  for (uint32_t n = 0; n < c.nodes.size(); ++n) {
    const Node& node = c.nodes[n];
    uint32_t free = 0;
    std::vector<GpuId> expected;
    for (uint32_t i = 0; i < node.gpu_count; ++i) {
      const GpuId g(node.first_gpu + i);
      if (s.gpu_free(g) != p.free[g.value()]) {
        return "gpu " + std::to_string(g.value());
      }
      if (p.free[g.value()]) {
        ++free;
        if (expected.size() < 5) {
          expected.push_back(g);
        }
      }
    }
    if (s.node_free(NodeId(n)) != free) {
      return "node_free " + std::to_string(n);
    }
    const bool touched = std::find(p.touched.begin(), p.touched.end(), NodeId(n)) != p.touched.end();
    if (s.touched(NodeId(n)) != touched) {
      return "touched " + std::to_string(n);
    }
    std::vector<GpuId> taken;
    if (s.take_free_on_node(NodeId(n), 5, taken) != expected.size() || taken != expected) {
      return "take_free_on_node " + std::to_string(n);
    }
    rack_free[node.rack.value()] += free;
    total += free;
  }
  for (uint32_t r = 0; r < c.racks.size(); ++r) {
    if (s.rack_free(RackId(r)) != rack_free[r]) {
      return "rack_free " + std::to_string(r);
    }
  }
  if (s.total_free() != total) {
    return "total_free";
  }
  const auto t = s.touched_nodes();
  if (!std::equal(t.begin(), t.end(), p.touched.begin(), p.touched.end())) {
    return "touched_nodes";
  }
  return "";
}

std::vector<GpuId> pick(std::mt19937& rng, const Plain& p, bool free, uint32_t most) {
  std::vector<GpuId> out;
  for (uint32_t g = 0; g < p.free.size(); ++g) {
    if (p.free[g] == free) {
      out.push_back(GpuId(g));
    }
  }
  std::shuffle(out.begin(), out.end(), rng);
  out.resize(std::min<size_t>(out.size(), 1 + rng() % most));
  return out;
}

// `after_step` (when given) looks at the scratch after each step of a run.
using StepCheck = std::function<void(const policy::Scratch&, std::mt19937&, uint32_t seed)>;

void check_random_runs(uint32_t gpus_per_node, const StepCheck& after_step = nullptr) {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    const Cluster cluster = testing::uniform_cluster(3, 3, gpus_per_node);
    testing::JobListBuilder jobs;
    for (int i = 0; i < 12; ++i) {
      jobs.add(0, 1 + rng() % (2 * gpus_per_node), 10);
    }
    state::ClusterState st(cluster, jobs.jobs(), jobs.symbols());
    for (uint32_t j = 0; j < jobs.jobs().size(); ++j) {
      ASSERT_TRUE(st.submit(JobId(j), Time::zero()).is_ok());
      std::vector<GpuId> free = pick(rng, plain_of(st), true, 1000);
      if (free.size() >= jobs.jobs()[j].gpus && rng() % 2 == 0) {
        free.resize(jobs.jobs()[j].gpus);
        ASSERT_TRUE(st.start(JobId(j), free, Time::zero()).is_ok());
      }
    }
    const state::ClusterView view(st, Time::zero());
    auto scratch = std::make_unique<policy::Scratch>(view);
    Plain plain = plain_of(st);
    for (int step = 0; step < 80; ++step) {
      const uint32_t op = rng() % 12;
      if (op < 4) {  // claim some free GPUs
        const std::vector<GpuId> gpus = pick(rng, plain, true, 2 * gpus_per_node);
        scratch->claim(gpus);
        for (GpuId g : gpus) {
          plain_change(plain, st, g, false);
        }
      } else if (op < 7) {  // release some taken GPUs
        const std::vector<GpuId> gpus = pick(rng, plain, false, 2 * gpus_per_node);
        scratch->release(gpus);
        for (GpuId g : gpus) {
          plain_change(plain, st, g, true);
        }
      } else if (op < 9) {  // release and claim back, then forget the nodes touched only by that
        const size_t mark = scratch->touched_nodes().size();
        const std::vector<GpuId> gpus = pick(rng, plain, false, 2 * gpus_per_node);
        scratch->release(gpus);
        scratch->claim(gpus);
        scratch->forget_touched_since(mark);
      } else if (op == 11) {  // a trial: release and claim some, then take it back
        scratch->begin_trial();
        const std::vector<GpuId> released = pick(rng, plain, false, 2 * gpus_per_node);
        scratch->release(released);
        const std::vector<GpuId> claimed = pick(rng, plain, true, 2 * gpus_per_node);
        scratch->claim(claimed);
        scratch->end_trial();
        for (GpuId g : released) {
          plain_change(plain, st, g, false);
        }
        for (GpuId g : claimed) {
          plain_change(plain, st, g, true);
        }
      } else if (op < 10 && rng() % 2 == 0) {  // go on with a copy
        scratch = std::make_unique<policy::Scratch>(*scratch);
      } else if (op < 10) {  // start over on the used scratch's storage, as a fresh scratch
        scratch = std::make_unique<policy::Scratch>(view, scratch->take_storage());
        plain = plain_of(st);
      } else {  // touch the nodes of some GPUs, free or taken, as releasing and claiming them back
        const std::vector<GpuId> gpus = pick(rng, plain, rng() % 2 == 0, 2 * gpus_per_node);
        scratch->touch(gpus);
        for (GpuId g : gpus) {
          plain_change(plain, st, g, plain.free[g.value()]);
        }
      }
      const std::string diff = difference(*scratch, plain, st);
      ASSERT_EQ(diff, "") << "seed " << seed << " step " << step;
      if (after_step) {
        after_step(*scratch, rng, seed);
      }
    }
  }
}

TEST(ScratchProperty, EqualsAPlainOverlayOnRandomChanges) {
  check_random_runs(8);
}

TEST(ScratchProperty, EqualsAPlainOverlayOnNodesPastTheMask) {
  check_random_runs(70);
}

// place_recalled answers as place() itself, for every placement that reads only a gang's shape,
// on the random runs above: after each step three gangs of random shapes (1-16 GPUs, preemptible
// or not; repeats are likely) are asked of the same scratch. It fails when a change does not clear
// the refusals, or a refusal is kept for another shape.
TEST(ScratchProperty, RecalledRefusalsAnswerAsPlacing) {
  std::vector<std::unique_ptr<policy::Placement>> placements;
  placements.push_back(policy::make_count_placement());
  placements.push_back(policy::make_first_fit_placement());
  placements.push_back(policy::make_pack_placement());
  placements.push_back(policy::make_consolidated_placement());
  uint32_t recalled = 0;
  uint32_t placed = 0;
  check_random_runs(8, [&](const policy::Scratch& scratch, std::mt19937& rng, uint32_t seed) {
    policy::Placement& p = *placements[seed % placements.size()];
    ASSERT_TRUE(p.reads_shape_only());
    for (int ask = 0; ask < 3; ++ask) {
      JobSpec gang = scratch.view().spec(JobId(0));
      gang.gpus = 1 + rng() % 16;
      gang.preemptible = rng() % 2 == 0;
      const policy::Scratch::Shape shape{gang.gpus, gang.gpu_types.index(), gang.preemptible};
      recalled += scratch.refused_before(shape) ? 1 : 0;
      const auto got = policy::place_recalled(p, gang, scratch);
      ASSERT_EQ(got, p.place(gang, scratch)) << p.name() << " seed " << seed;
      placed += got ? 1 : 0;
    }
  });
  EXPECT_GT(recalled, 200u);
  EXPECT_GT(placed, 200u);
}

}  // namespace
}  // namespace boreas
