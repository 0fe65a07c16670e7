// The twin against published simulators on the same inputs (data/peer-cases/README.md): count
// placement, no preemption overhead. Tolerances are the acceptance bounds.
#include <gtest/gtest.h>

#include <cmath>

#include "policy/registry.h"
#include "sim/run.h"
#include "support/cluster_builder.h"
#include "support/peer_case.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

struct Peer {
  double avg_jct_s;
  double makespan_s;
  double utilization;
};

struct Case {
  const char* file;
  uint32_t nodes;
  Peer fifo, fjf, dlas_gpu, shortest_gpu;  // Tiresias' results
};

const Case kSynth{"synth1000.csv",
                  8,
                  {67651.5, 3130688, 0.6705},
                  {65182.9, 3130688, 0.6705},
                  {64731.6, 3130688, 0.6705},
                  {63814.5, 3130688, 0.6705}};
const Case kPhilly{"philly-vc-0e4a51.csv",       6,
                   {1407737.5, 7461851, 0.7795}, {1131921.1, 7461851, 0.7795},
                   {376387.9, 7461851, 0.7795},  {195115.2, 8093851, 0.7187}};

double rel(double got, double want) {
  return std::abs(got - want) / want;
}

sim::Summary run(const Case& c, const std::string& policy) {
  auto jobs = testing::read_peer_case(std::string(BOREAS_SOURCE_DIR "/data/peer-cases/") + c.file);
  const Cluster cluster = testing::uniform_cluster(1, c.nodes, 8);
  auto out = testing::simulate({&cluster, jobs.jobs, &jobs.symbols}, policy);
  EXPECT_TRUE(out.is_ok());
  return out.is_ok() ? out->summary : sim::Summary{};
}

void expect_fifo(const Case& c) {
  const sim::Summary s = run(c, "fifo");
  EXPECT_LT(rel(s.avg_jct_s, c.fifo.avg_jct_s), 0.005) << s.avg_jct_s;
  EXPECT_LT(rel(s.makespan_s, c.fifo.makespan_s), 0.001) << s.makespan_s;
  EXPECT_LT(rel(s.utilization, c.fifo.utilization), 0.001) << s.utilization;
  EXPECT_EQ(s.preemptions, 0u);
}

TEST(PeerFidelity, FifoSynth1000) {
  expect_fifo(kSynth);
}
TEST(PeerFidelity, FifoPhillyVc) {
  expect_fifo(kPhilly);
}

void expect_close(const Case& c, const std::string& policy, const Peer& peer, double tolerance) {
  const sim::Summary s = run(c, policy);
  EXPECT_LT(rel(s.avg_jct_s, peer.avg_jct_s), tolerance) << policy << " avg JCT " << s.avg_jct_s;
  EXPECT_LT(rel(s.makespan_s, peer.makespan_s), tolerance) << policy << " makespan " << s.makespan_s;
}

TEST(PeerFidelity, FjfWithinOnePercent) {
  expect_close(kSynth, "fjf", kSynth.fjf, 0.01);
  expect_close(kPhilly, "fjf", kPhilly.fjf, 0.01);
}

TEST(PeerFidelity, SrtfGpuWithinTwoPercentOfShortestGpu) {
  expect_close(kSynth, "srtf-gpu", kSynth.shortest_gpu, 0.02);
  expect_close(kPhilly, "srtf-gpu", kPhilly.shortest_gpu, 0.02);
}

TEST(PeerFidelity, LasWithinFivePercentOfDlasGpu) {
  expect_close(kSynth, "las", kSynth.dlas_gpu, 0.05);
  expect_close(kPhilly, "las", kPhilly.dlas_gpu, 0.05);
}

}  // namespace
}  // namespace boreas
