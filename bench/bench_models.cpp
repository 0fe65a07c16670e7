// Per-call cost of the models on the engine's hot paths (rate changes, thermal events, failure
// draws), to budget issue 5's "all models within 3× of the replay without them".

#include <benchmark/benchmark.h>

#include <vector>

#include "models/comm.h"
#include "models/failure.h"
#include "models/thermal.h"
#include "models/throughput.h"

namespace boreas::models {
namespace {

GpuType h100() {
  GpuType t;
  t.name = "H100-SXM";
  t.bf16_tflops = 989;
  t.memory_bandwidth_gbps = 3350;
  t.tdp_w = 700;
  return t;
}

void BM_ThroughputRate(benchmark::State& state) {
  const ThroughputModel m(default_throughput_params());
  const GpuType type = h100();
  const size_t cls = m.class_index("transformer-training");
  double clock = 1.0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(m.rate(cls, type, clock));
    clock = clock > 0.5 ? clock - 1e-6 : 1.0;
  }
}
BENCHMARK(BM_ThroughputRate);

void BM_AllReduceForPlacement(benchmark::State& state) {
  const std::vector<FabricTier> fabric = {{"nvlink", 450, Duration::micros(3)},
                                          {"leaf", 50, Duration::micros(70)},
                                          {"spine", 25, Duration::micros(80)}};
  const CommParams params;
  const PlacementSummary pl{8, 4, 2};
  for (auto _ : state) {
    const PlacementLinks links = placement_links(fabric, true, pl, params);
    benchmark::DoNotOptimize(allreduce_seconds(pl, 2e9, links, params));
  }
}
BENCHMARK(BM_AllReduceForPlacement);

void BM_ThermalAdvanceAndOnset(benchmark::State& state) {
  const ThermalParams p;
  const Rc rc = rc_for(h100(), CoolingKind::kAir, p);
  double t = 25;
  for (auto _ : state) {
    t = advance_c(t, 30, 650, rc, Duration::seconds(60));
    benchmark::DoNotOptimize(time_to_reach(t, p.max_operating_c, 30, 650, rc));
    t = t > 70 ? 25 : t;
  }
}
BENCHMARK(BM_ThermalAdvanceAndOnset);

void BM_ThrottleState(benchmark::State& state) {
  const ThermalParams p;
  const PowerParams power;
  const GpuType type = h100();
  const Rc rc = rc_for(type, CoolingKind::kAir, p);
  double inlet = 40;
  for (auto _ : state) {
    benchmark::DoNotOptimize(throttle_state(type, 0.9, inlet, rc, power, p));
    inlet = inlet > 60 ? 40 : inlet + 0.01;
  }
}
BENCHMARK(BM_ThrottleState);

// One failure draw among N GPUs + N/8 nodes (linear pick over the components).
void BM_FailureDraw(benchmark::State& state) {
  const auto gpus = static_cast<uint32_t>(state.range(0));
  const FailureProcess process = job_failure_process(llama3_failure_params(), gpus, gpus / 8);
  Rng rng(1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(process.next(rng));
  }
}
BENCHMARK(BM_FailureDraw)->Arg(1024)->Arg(16384);

}  // namespace
}  // namespace boreas::models
