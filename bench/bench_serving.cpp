// The serving twin's speed: requests simulated per CPU-second on the Azure conversation trace
// (19,366 requests) with continuous batching (issue 19's target: 1,000,000/s). The trace and the
// service are read once; each iteration runs the whole trace.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "serving/request_trace.h"
#include "serving/service_spec.h"
#include "serving/max_rate.h"
#include "serving/simulator.h"
#include "serving/summary.h"

namespace {

using namespace boreas::serving;

struct Inputs {
  RequestTrace trace;
  ServiceSpec service;
  Placement placement;
};

Inputs load(const std::string& service_file) {
  const std::string root = BOREAS_SOURCE_DIR;
  auto trace = read_request_trace(root + "/data/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv.gz");
  auto service = load_service_file(root + "/examples/services/" + service_file);
  if (!trace.is_ok() || !service.is_ok()) {
    std::cerr << (trace.is_ok() ? service.status().message() : trace.status().message()) << "\n";
    std::exit(1);
  }
  boreas::GpuType gpu;  // H100-SXM and L4 figures of data/gpus.yaml
  const bool h100 = service->gpu == "H100-SXM";
  gpu.name = service->gpu;
  gpu.bf16_tflops = h100 ? 989 : 121;
  gpu.memory_bandwidth_gbps = h100 ? 3350 : 300;
  gpu.memory_gib = h100 ? 80 : 24;
  return {std::move(*trace), std::move(*service), Placement{gpu, 64}};
}

void run(benchmark::State& state, const std::string& service_file) {
  const Inputs in = load(service_file);
  for (auto _ : state) {
    auto r = simulate(in.trace, in.service, in.placement, SimOptions{});
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * in.trace.requests.size()));
}

// summary.json's figures, the slowdown SLO's isolated run of every request included.
void BM_AzureConvSummary70b(benchmark::State& state) {
  const Inputs in = load("llama2-70b-h100-tp4.yaml");
  auto r = simulate(in.trace, in.service, in.placement, SimOptions{});
  for (auto _ : state) {
    benchmark::DoNotOptimize(summarize(in.trace, in.service, in.placement.gpu, *r));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * in.trace.requests.size()));
}

// --find-max-rate on the whole trace: about ten simulations and summaries.
void BM_AzureConvMaxRate70b(benchmark::State& state) {
  const Inputs in = load("llama2-70b-h100-tp4.yaml");
  for (auto _ : state) {
    benchmark::DoNotOptimize(find_max_rate(in.trace, in.service, in.placement, SimOptions{}));
  }
}

void BM_AzureConvLlama70bH100(benchmark::State& state) { run(state, "llama2-70b-h100-tp4.yaml"); }
void BM_AzureConvLlama8bL4(benchmark::State& state) { run(state, "llama3-8b-l4.yaml"); }
void BM_AzureConvDlrmDynamic(benchmark::State& state) { run(state, "dlrm-dynamic.yaml"); }

BENCHMARK(BM_AzureConvLlama70bH100)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AzureConvLlama8bL4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AzureConvDlrmDynamic)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AzureConvSummary70b)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AzureConvMaxRate70b)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
