// The metrics that judge policies (docs/formats/sim-output.md), each on a hand-computed scenario
// of a few jobs on one 4-GPU node. Every expected number is worked out in the comment above it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <map>
#include <random>
#include <vector>

#include "config/cluster_spec.h"
#include "sim/meter.h"
#include "sim/metrics.h"
#include "sim/series_columns.h"
#include "support/cluster_builder.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

sim::RunOutput run(const Cluster& cluster, testing::JobListBuilder& jobs, const std::string& policy,
                   sim::EngineOptions engine = {}, policy::PolicyOptions options = {}) {
  auto out = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, policy, std::move(options), engine);
  EXPECT_TRUE(out.is_ok()) << (out.is_ok() ? "" : out.status().message());
  return out.is_ok() ? std::move(*out) : sim::RunOutput{};
}

sim::EngineOptions window(int64_t start_s, int64_t end_s) {
  sim::EngineOptions e;
  e.meter.window_start = Duration::seconds(start_s);
  e.meter.window_end = Duration::seconds(end_s);
  return e;
}

// fifo, 4 GPUs: A (t=0, 4 GPUs, 10 s) runs 0–10; B (t=5, 2 GPUs, 10 s) waits, runs 10–20.
// Makespan 20: makespan utilization (4·10 + 2·10) / (4·20) = 0.75; window [0, 20]: the same
// 60 GPU-s allocated / 80 = 0.75. A late job C (t=1000, 1 GPU, 10 s) stretches the makespan to
// 1010: (60 + 10) / (4·1010); the window [0, 20] still holds 60 of 80 GPU-s.
TEST(WindowUtilization, ALateJobMovesMakespanUtilizationOnly) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder two;
  two.add(0, 4, 10).add(5, 2, 10);
  const auto before = run(cluster, two, "fifo", window(0, 20));
  testing::JobListBuilder three;
  three.add(0, 4, 10).add(5, 2, 10).add(1000, 1, 10);
  const auto after = run(cluster, three, "fifo", window(0, 20));
  EXPECT_DOUBLE_EQ(before.summary.utilization, 0.75);
  EXPECT_DOUBLE_EQ(after.summary.utilization, 70.0 / 4040.0);
  EXPECT_DOUBLE_EQ(before.summary.window_utilization, 0.75);
  EXPECT_DOUBLE_EQ(after.summary.window_utilization, 0.75);
  EXPECT_DOUBLE_EQ(after.summary.window_start_s, 0);
  EXPECT_DOUBLE_EQ(after.summary.window_end_s, 20);
}

// Default window = first to last submission: [0, 5], while A holds all 4 GPUs: 20 / 20 = 1.
// Without physics every rate is 1, so work utilization equals it.
TEST(WindowUtilization, DefaultWindowIsFirstToLastSubmission) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 10).add(5, 2, 10);
  const auto out = run(cluster, jobs, "fifo");
  EXPECT_DOUBLE_EQ(out.summary.window_end_s, 5);
  EXPECT_DOUBLE_EQ(out.summary.window_utilization, 1.0);
  EXPECT_DOUBLE_EQ(out.summary.work_utilization, 1.0);
}

// Every job submitted at once leaves the default window empty: the whole run is measured instead.
// Two 4-GPU jobs of 10 s back to back: [0, 20], 80 / 80 GPU-s.
TEST(WindowUtilization, OneSubmissionInstantMeasuresTheWholeRun) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 10).add(0, 4, 10);
  const auto out = run(cluster, jobs, "fifo");
  EXPECT_DOUBLE_EQ(out.summary.window_end_s, 20);
  EXPECT_DOUBLE_EQ(out.summary.window_utilization, 1.0);
}

TEST(WindowUtilization, AWindowThatEndsBeforeItStartsIsAnError) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 10).add(5, 2, 10);
  sim::EngineOptions e;
  e.meter.window_start = Duration::seconds(100);  // no end: the last submission, t=5
  auto out = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, "fifo", {}, e);
  ASSERT_FALSE(out.is_ok());
  EXPECT_NE(out.status().message().find("starts at 100"), std::string::npos) << out.status().message();
  EXPECT_NE(out.status().message().find("END > START"), std::string::npos) << out.status().message();
}

TEST(ParseWindow, AcceptsEitherSideEmptyAndRefusesNonsense) {
  sim::MeterOptions o;
  ASSERT_TRUE(sim::parse_window("10:20.5", o).is_ok());
  EXPECT_EQ(*o.window_start, Duration::seconds(10));
  EXPECT_EQ(*o.window_end, Duration::millis(20500));
  ASSERT_TRUE(sim::parse_window(":20", o).is_ok());
  EXPECT_FALSE(o.window_start.has_value());
  ASSERT_TRUE(sim::parse_window("7:", o).is_ok());
  EXPECT_FALSE(o.window_end.has_value());
  for (const char* bad : {"20", "a:5", "5:b", "20:10", "-1:5", "5:5"}) {
    const Status st = sim::parse_window(bad, o);
    EXPECT_FALSE(st.is_ok()) << bad;
    EXPECT_NE(st.message().find("--window '" + std::string(bad) + "'"), std::string::npos) << st.message();
  }
}

// Strict fifo, 4 GPUs: A (t=0, 3 GPUs, 100 s) runs 0–100. B (t=10, 2 GPUs, 50 s) waits: the one
// free GPU does not fit it, so [10, 20) is not idle-while-waiting. C (t=20, 1 GPU, 30 s) fits the
// free GPU but waits behind B: [20, 100) counts 1 GPU → 80 GPU-s. At 100 B and C start.
// easy-backfill starts C at 20 (it ends at 50, before A frees the GPUs B needs): 0.
TEST(IdleWhileWaiting, CountsFreeGpusAWaitingGangWouldFit) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 3, 100).add(10, 2, 50).add(20, 1, 30);
  const auto fifo = run(cluster, jobs, "fifo");
  EXPECT_EQ(fifo.result.jobs[2].first_start, Time::from_seconds(100));
  EXPECT_DOUBLE_EQ(fifo.summary.idle_gpu_hours_while_waiting, 80.0 / 3600.0);
  const auto backfill = run(cluster, jobs, "easy-backfill");
  EXPECT_EQ(backfill.result.jobs[2].first_start, Time::from_seconds(20));
  EXPECT_DOUBLE_EQ(backfill.summary.idle_gpu_hours_while_waiting, 0.0);
}

// boreas, queue a capped at 2 GPUs (guaranteed 2, borrow limit 0): a0 (2 GPUs, 100 s) runs
// 0–100; a1 (2 GPUs) waits until 100 beside 2 free GPUs it would fit, held by its own queue's
// ceiling: not counted (it would be 2 × 100 = 200 GPU-s otherwise).
TEST(IdleWhileWaiting, LeavesOutJobsHeldByTheirOwnQuota) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  auto tree = config::load_queues_string(
      "queues: [{name: a, quotas: [{gpu: '*', guaranteed: 2, borrow_limit: 0}]}, {name: b}]", "inline",
      cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  policy::PolicyOptions options;
  options.tenancy.queues = std::make_shared<QueueTree>(std::move(*tree));
  testing::JobListBuilder jobs;
  jobs.add(0, 2, 100, "a").add(0, 2, 100, "a");
  const auto out = run(cluster, jobs, "boreas", {}, options);
  EXPECT_EQ(out.result.jobs[1].first_start, Time::from_seconds(100));
  EXPECT_DOUBLE_EQ(out.summary.idle_gpu_hours_while_waiting, 0.0);
}

// fifo on the idle-while-waiting scenario, A and B in queue x, C in queue y and class prod.
// JCTs: A 100, B 150 − 10 = 140, C 130 − 20 = 110; slowdowns 1, 2.8, 11/3.
// Sorted [1, 2.8, 3.667]: p50 = 2.8; p95 at rank 1.9 = 2.8 + 0.9 (11/3 − 2.8); p99 at rank 1.98.
// Waits 0, 90, 80: max_queue_s 90. Queue x: avg JCT 120, slowdown p50 (1 + 2.8) / 2 = 1.9.
TEST(Slowdown, PercentilesMaxQueueAndGroups) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 3, 100, "x").add(10, 2, 50, "x").add(20, 1, 30, "y");
  jobs.jobs()[2].priority_class = jobs.symbols().intern("prod");
  const auto out = run(cluster, jobs, "fifo");
  const double c = 110.0 / 30.0;
  EXPECT_DOUBLE_EQ(out.summary.slowdown_p50, 2.8);
  EXPECT_DOUBLE_EQ(out.summary.slowdown_p95, 2.8 + 0.9 * (c - 2.8));
  EXPECT_DOUBLE_EQ(out.summary.slowdown_p99, 2.8 + 0.98 * (c - 2.8));
  EXPECT_DOUBLE_EQ(out.summary.max_queue_s, 90);
  EXPECT_DOUBLE_EQ(out.summary.queues.at("x").avg_jct_s, 120);
  EXPECT_DOUBLE_EQ(out.summary.queues.at("x").slowdown_p50, 1.9);
  EXPECT_DOUBLE_EQ(out.summary.queues.at("y").slowdown_p99, c);
  EXPECT_DOUBLE_EQ(out.summary.classes.at("prod").avg_jct_s, 110);
  EXPECT_DOUBLE_EQ(out.summary.classes.at("prod").slowdown_p50, c);
  EXPECT_DOUBLE_EQ(out.summary.classes.at("default").avg_jct_s, 120);
}

// Queues a and b, equal weights (no queue tree), 4 GPUs. a1 (t=0, 4 GPUs, 100 s); b1 (t=10,
// 4 GPUs, 10 s). While both have demand ([10, b1's end)), each is entitled 4 / 2 = 2 GPUs.
// fifo: a1 holds 4 until 100, b1 runs 100–110: b is short 2 GPUs for 90 s = 180 GPU-s.
// srtf: b1 (10 s left) preempts a1 (90 s left) at 10 and runs 10–20: a is short 2 × 10 = 20 GPU-s.
// Entitled under fifo: a 4·10 + 2·90 = 220, b 2·90 + 4·10 = 220 GPU-s.
TEST(Fairness, ShortfallDiffersBetweenPolicies) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 100, "a").add(10, 4, 10, "b");
  const auto fifo = run(cluster, jobs, "fifo");
  const auto srtf = run(cluster, jobs, "srtf");
  EXPECT_EQ(srtf.result.jobs[1].first_start, Time::from_seconds(10));
  EXPECT_DOUBLE_EQ(fifo.summary.fairness_shortfall_gpu_hours, 180.0 / 3600.0);
  EXPECT_DOUBLE_EQ(fifo.summary.queues.at("b").fairness_shortfall_gpu_hours, 180.0 / 3600.0);
  EXPECT_DOUBLE_EQ(fifo.summary.queues.at("a").fairness_shortfall_gpu_hours, 0.0);
  EXPECT_DOUBLE_EQ(fifo.summary.queues.at("a").entitled_gpu_hours, 220.0 / 3600.0);
  EXPECT_DOUBLE_EQ(fifo.summary.fairness_shortfall_share, 180.0 / 440.0);
  EXPECT_DOUBLE_EQ(srtf.summary.fairness_shortfall_gpu_hours, 20.0 / 3600.0);
  EXPECT_DOUBLE_EQ(srtf.summary.queues.at("a").fairness_shortfall_gpu_hours, 20.0 / 3600.0);
}

// 10 GPUs; demands 1, 6, 8. Equal weights: 1 is met, 9 left → 4.5 each for the other two.
// Weights 1, 1, 3 (a guarantee-like 3×): 1 met; 9 left by weight 1:3 → 2.25 and 6.75.
// A weight-0 claim only gets what the weighted ones leave: 2 weighted claims of 2 on 10 GPUs
// leave 6, all to the weight-0 claim of 8.
TEST(Fairness, WaterFillIsWeightedMaxMin) {
  std::vector<sim::Claim> equal{{1, 1, 0}, {6, 1, 0}, {8, 1, 0}};
  sim::water_fill(equal, 10);
  EXPECT_DOUBLE_EQ(equal[0].entitled, 1);
  EXPECT_DOUBLE_EQ(equal[1].entitled, 4.5);
  EXPECT_DOUBLE_EQ(equal[2].entitled, 4.5);
  std::vector<sim::Claim> weighted{{1, 1, 0}, {6, 1, 0}, {8, 3, 0}};
  sim::water_fill(weighted, 10);
  EXPECT_DOUBLE_EQ(weighted[1].entitled, 2.25);
  EXPECT_DOUBLE_EQ(weighted[2].entitled, 6.75);
  std::vector<sim::Claim> zero{{2, 1, 0}, {2, 1, 0}, {8, 0, 0}};
  sim::water_fill(zero, 10);
  EXPECT_DOUBLE_EQ(zero[0].entitled, 2);
  EXPECT_DOUBLE_EQ(zero[2].entitled, 6);
}

// The meter driven by hand, window [10, 50], 4 GPUs. J (2 GPUs) is submitted at 0 and started at
// 20 at rate 0.5 (a slow placement); facility power 1 kW until 20, 3 kW after.
// Allocated in the window: 2 GPUs × 30 s = 60 → 60 / 160 = 0.375 of capacity.
// Work: 0.5 × 2 × 30 = 30 reference-GPU-s. Energy: 1 kW × 10 s + 3 kW × 30 s = 100 kJ = 1/36 kWh.
// Idle while waiting: J fits the 4 free GPUs for [0, 20): 2 GPUs × 20 s = 40 GPU-s; its queue is
// entitled to its demand (2) all along and short 2 GPUs until 20: 40 GPU-s of 120 entitled.
TEST(Meter, IntegratesRatesExactlyBetweenEvents) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 2, 100);
  state::ClusterState state(cluster, jobs.jobs(), jobs.symbols());
  sim::MeterOptions options;
  options.window_start = Duration::seconds(10);
  options.window_end = Duration::seconds(50);
  sim::Meter meter(state, options);
  const policy::ReasonBook none;  // no reasons given
  const JobId j(0);
  ASSERT_TRUE(state.submit(j, Time::from_seconds(0)).is_ok());
  ASSERT_TRUE(meter.start(Time::from_seconds(0), Time::from_seconds(0)).is_ok());
  meter.observe(Time::from_seconds(0), 1000, none);
  const std::vector<GpuId> gpus{GpuId(0), GpuId(1)};
  ASSERT_TRUE(state.start(j, gpus, Time::from_seconds(20)).is_ok());
  ASSERT_TRUE(state.set_rate(j, 0.5, Time::from_seconds(20)).is_ok());
  meter.observe(Time::from_seconds(20), 3000, none);
  const sim::MeterTotals m = meter.finish(Time::from_seconds(60));
  EXPECT_DOUBLE_EQ(m.window_allocated_gpu_s, 60);
  EXPECT_DOUBLE_EQ(m.window_work_gpu_s, 30);
  EXPECT_DOUBLE_EQ(m.window_facility_kwh, 100e3 / 3.6e6);
  EXPECT_DOUBLE_EQ(m.idle_while_waiting_gpu_s, 40);
  EXPECT_DOUBLE_EQ(m.queue_shortfall_gpu_s.at("default"), 40);
  EXPECT_DOUBLE_EQ(m.queue_entitled_gpu_s.at("default"), 120);
}

// GPU types matter: node0 has 2 free TEST GPUs, node1's 2 OTHER GPUs are held by J0. J1 (1 OTHER
// GPU) waits but fits nothing free; J2 (1 GPU of any type) would fit a TEST GPU. From 0 to 10 s:
// min(free GPUs J2 accepts = 2, its demand 1) = 1 GPU idle → 10 GPU-s (J1 alone would give 0).
TEST(Meter, IdleWhileWaitingRespectsGpuTypes) {
  Cluster cluster = testing::uniform_cluster(1, 2, 2);
  GpuType other;
  other.name = "OTHER";
  cluster.catalog.add(other);
  cluster.nodes[1].gpu_type = GpuTypeId(1);
  testing::JobListBuilder jobs;
  jobs.add(0, 2, 100).add(0, 1, 100).add(0, 1, 100);
  jobs.jobs()[0].gpu_types = jobs.symbols().intern("OTHER");
  jobs.jobs()[1].gpu_types = jobs.symbols().intern("OTHER");
  state::ClusterState state(cluster, jobs.jobs(), jobs.symbols());
  sim::Meter meter(state, {});
  const policy::ReasonBook none;  // no reasons given
  for (uint32_t j = 0; j < 3; ++j) {
    ASSERT_TRUE(state.submit(JobId(j), Time::from_seconds(0)).is_ok());
  }
  const std::vector<GpuId> node1{GpuId(2), GpuId(3)};
  ASSERT_TRUE(state.start(JobId(0), node1, Time::from_seconds(0)).is_ok());
  ASSERT_TRUE(meter.start(Time::from_seconds(0), Time::from_seconds(10)).is_ok());
  meter.observe(Time::from_seconds(0), 0, none);
  EXPECT_DOUBLE_EQ(meter.finish(Time::from_seconds(10)).idle_while_waiting_gpu_s, 10);
}

// With power physics the window energy is the physics' own integral: over [0, 20], the whole run
// (A 0–10 on 4 GPUs, B 10–20 on 2), it equals energy_facility_kwh; over [0, 10] it is less.
TEST(PhysicsMetrics, WindowEnergyOverTheWholeRunIsTheTotal) {
  const Cluster cluster = testing::uniform_cluster(1, 1, 4);
  testing::JobListBuilder jobs;
  jobs.add(0, 4, 10).add(5, 2, 10);
  sim::EngineOptions whole = window(0, 20);
  whole.physics.on.power = true;
  const auto all = run(cluster, jobs, "fifo", whole);
  ASSERT_TRUE(all.summary.physics.has_value());
  const double total = all.summary.physics->energy_facility_kwh;
  EXPECT_GT(total, 0);
  EXPECT_NEAR(all.summary.energy_facility_kwh_window, total, 1e-9 * total);
  sim::EngineOptions half = window(0, 10);
  half.physics.on.power = true;
  const auto first = run(cluster, jobs, "fifo", half);
  EXPECT_LT(first.summary.energy_facility_kwh_window, total);
  EXPECT_GT(first.summary.energy_facility_kwh_window, 0);
}

// Physics totals per completed reference GPU-hour: 10 kWh and $5 over 4 ref GPU-hours.
TEST(PhysicsMetrics, EnergyAndCostPerReferenceGpuHour) {
  sim::SimResult result;
  result.physics = sim::PhysicsTotals{};
  result.physics->energy_facility_kwh = 10;
  result.physics->cost_usd = 5;
  result.meter.window_facility_kwh = 3;
  sim::Summary s;
  s.completed_ref_gpu_hours = 4;
  SymbolTable symbols;
  sim::add_physics_metrics(s, result, {}, symbols, 4);
  EXPECT_DOUBLE_EQ(s.energy_kwh_per_ref_gpu_hour, 2.5);
  EXPECT_DOUBLE_EQ(s.cost_usd_per_ref_gpu_hour, 1.25);
  EXPECT_DOUBLE_EQ(s.energy_facility_kwh_window, 3);
}

// timeseries.csv's cells: the integer path for whole numbers with no places writes what fmt's
// "{:.Nf}" writes, on random values of every kind the columns hold (counts, halves, negatives, -0,
// huge and tiny numbers) and 0–3 places.
TEST(SeriesColumns, CellTextEqualsFixedFormatting) {
  std::mt19937_64 rng(23);
  std::uniform_int_distribution<int> kind(0, 6), decimals(0, 3);
  std::uniform_int_distribution<int64_t> count(0, 100000);
  std::uniform_real_distribution<double> real(-1e6, 1e6);
  int integer_cells = 0;
  for (int i = 0; i < 200000; ++i) {
    double v = 0;
    switch (kind(rng)) {
      case 0: v = static_cast<double>(count(rng)); break;
      case 1: v = static_cast<double>(count(rng)) + 0.5; break;
      case 2: v = -static_cast<double>(count(rng)); break;
      case 3: v = -0.0; break;
      case 4: v = std::ldexp(static_cast<double>(count(rng) + 1), 40 + static_cast<int>(count(rng) % 30)); break;
      case 5: v = real(rng) * 1e-9; break;
      default: v = real(rng); break;
    }
    const int d = i % 2 == 0 ? 0 : decimals(rng);
    fmt::memory_buffer out;
    sim::append_column_value(out, v, d);
    ASSERT_EQ(fmt::to_string(out), fmt::format(",{:.{}f}", v, d)) << v << " with " << d << " places";
    integer_cells += d == 0 && v == std::floor(v) && !std::signbit(v) ? 1 : 0;
  }
  EXPECT_GT(integer_cells, 20000);  // the integer path was taken
}

// A column's cells through ColumnText (the row before's text for the same bits) equal
// append_column_value cell by cell, on random columns that repeat for stretches, flip between 0 and
// -0 and between values that print alike, and change places now and then (quota17).
TEST(ColumnTextProperty, EqualsCellFormattingRowByRow) {
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<int> kind(0, 5), decimals(0, 3), repeat(0, 3);
  std::uniform_int_distribution<int64_t> count(0, 600);
  uint64_t repeated = 0;
  for (int column = 0; column < 2000; ++column) {
    sim::ColumnText text;
    fmt::memory_buffer cached, plain;
    int d = column % 2 == 0 ? 0 : decimals(rng);
    double v = 0;
    for (int row = 0; row < 200; ++row) {
      if (repeat(rng) == 0) {
        switch (kind(rng)) {
          case 0: v = static_cast<double>(count(rng)); break;
          case 1: v = -v; break;  // 0 and -0 have different bits and text
          case 2: v = static_cast<double>(count(rng)) + 1e-9; break;  // prints as the integer with places
          case 3: v = std::nextafter(v, 1e9); break;
          case 4: d = decimals(rng); break;
          default: v = static_cast<double>(count(rng)) / 7; break;
        }
      } else {
        ++repeated;
      }
      text.append(cached, v, d);
      sim::append_column_value(plain, v, d);
      ASSERT_EQ(fmt::to_string(cached), fmt::to_string(plain)) << "column " << column << " row " << row;
    }
  }
  EXPECT_GT(repeated, 200000u);  // the cached text was used
}

// The meter's fairness integrals (shares refilled only when a queue's demand or the capacity
// changed) equal the definition recomputed from scratch at every instant of random runs: per queue
// the GPUs held plus the pending gangs, a weighted max-min fill of the cluster (weights = the
// guarantees), shortfall = entitled − held, each rate integrated until the next instant.
TEST(MeterProperty, FairnessIntegralsEqualSharesFromScratchOnRandomRuns) {
  const char* tree_text =
      "queues:\n"
      "  - {name: a, quotas: [{gpu: '*', guaranteed: 8}]}\n"
      "  - {name: b, quotas: [{gpu: '*', guaranteed: 5}]}\n"
      "  - {name: c, quotas: [{gpu: '*', guaranteed: 3}]}\n";
  const Cluster cluster = testing::uniform_cluster(1, 2, 8);
  auto tree = config::load_queues_string(tree_text, "inline", cluster);
  ASSERT_TRUE(tree.is_ok()) << tree.status().message();
  const std::vector<std::string> names = {"a", "b", "c", "z"};  // z: no guarantee, weight 0
  const std::vector<double> weights = {8, 5, 3, 0};
  uint64_t refills_seen = 0;
  for (const char* policy : {"fifo", "las", "srtf"}) {
    for (uint32_t seed = 1; seed <= 10; ++seed) {
      std::mt19937 rng(seed);
      testing::JobListBuilder jobs;
      int64_t t = 0;
      for (int i = 0; i < 120; ++i) {
        t += std::uniform_int_distribution<int64_t>(0, 4)(rng);
        jobs.add(t, 1 + static_cast<uint32_t>(rng() % 6), std::uniform_int_distribution<int64_t>(1, 30)(rng),
                 names[rng() % names.size()].c_str());
      }
      std::vector<double> shortfall(names.size(), 0), entitled(names.size(), 0), rate_short, rate_entitled;
      Time last = Time::never();
      auto observer = [&](const state::ClusterState& s, Time now) {
        if (!last.is_never()) {
          for (size_t q = 0; q < rate_short.size(); ++q) {
            shortfall[q] += rate_short[q] * (now - last).to_seconds();
            entitled[q] += rate_entitled[q] * (now - last).to_seconds();
          }
        }
        last = now;
        std::vector<uint64_t> held(names.size(), 0), demand(names.size(), 0);
        for (uint32_t j = 0; j < s.job_count(); ++j) {
          const JobId id(j);
          const auto q = static_cast<size_t>(
              std::find(names.begin(), names.end(), s.symbols().view(s.spec(id).queue)) - names.begin());
          const bool running = s.record(id).state == JobState::kRunning;
          const bool waits = s.pending().count(id) > 0;  // arrived and waiting (jobs to come are not)
          held[q] += running ? s.spec(id).gpus : 0;
          demand[q] += running || waits ? s.spec(id).gpus : 0;
        }
        std::vector<sim::Claim> claims;
        std::vector<size_t> of;
        for (size_t q = 0; q < names.size(); ++q) {
          if (demand[q] > 0) {
            claims.push_back(sim::Claim{static_cast<double>(demand[q]), weights[q], 0});
            of.push_back(q);
          }
        }
        sim::water_fill(claims, static_cast<double>(s.total_gpus() - s.down_gpus()));
        rate_short.assign(names.size(), 0);
        rate_entitled.assign(names.size(), 0);
        for (size_t i = 0; i < claims.size(); ++i) {
          rate_entitled[of[i]] = claims[i].entitled;
          rate_short[of[i]] = std::max(0.0, claims[i].entitled - static_cast<double>(held[of[i]]));
        }
        ++refills_seen;
      };
      policy::PolicyOptions options;
      options.tenancy.queues = std::make_shared<QueueTree>(*tree);
      auto out = testing::simulate({&cluster, jobs.jobs(), &jobs.symbols()}, policy, options, {}, observer);
      ASSERT_TRUE(out.is_ok()) << out.status().message();
      for (size_t q = 0; q < names.size(); ++q) {
        const auto& m = out->result.meter;
        const double got_short = m.queue_shortfall_gpu_s.count(names[q]) ? m.queue_shortfall_gpu_s.at(names[q]) : 0;
        const double got_entitled = m.queue_entitled_gpu_s.count(names[q]) ? m.queue_entitled_gpu_s.at(names[q]) : 0;
        EXPECT_NEAR(got_short, shortfall[q], 1e-6 * (1 + shortfall[q])) << policy << " seed " << seed << " " << names[q];
        EXPECT_NEAR(got_entitled, entitled[q], 1e-6 * (1 + entitled[q])) << policy << " seed " << seed << " " << names[q];
      }
      EXPECT_GT(entitled[0] + entitled[1], 0) << policy << " seed " << seed;
    }
  }
  EXPECT_GT(refills_seen, 1000u);
}

}  // namespace
}  // namespace boreas
