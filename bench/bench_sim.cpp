// Simulator throughput: the full Philly trace (82,247 jobs) under fifo and las, and 1,000,000
// synthetic jobs on a 100,000-GPU cluster with pack placement. Peak RSS is reported as a counter
// (process-wide high-water mark, so run one benchmark per process for memory: --benchmark_filter).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <filesystem>
#include <random>

#include "config/cluster_spec.h"
#include "policy/registry.h"
#include "sim/run.h"
#include "support/cluster_builder.h"
#include "trace/trace.h"

namespace boreas {
namespace {

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// examples/clusters/philly.yaml when present, else 2,560 GPUs (320 × 8) in racks of 16 nodes.
Cluster philly_cluster() {
  const std::string path = BOREAS_SOURCE_DIR "/examples/clusters/philly.yaml";
  if (std::filesystem::exists(path)) {
    auto c = config::load_cluster_file(path);
    if (c.is_ok()) {
      return *c;
    }
  }
  return testing::uniform_cluster(20, 16, 8);
}

void run(benchmark::State& state, const Cluster& cluster, std::span<const JobSpec> jobs,
         const SymbolTable& symbols, const std::string& policy, const std::string& placement) {
  policy::PolicyRegistry registry;
  policy::register_baseline(registry);
  for (auto _ : state) {
    sim::RunRequest req;
    req.cluster = &cluster;
    req.jobs = jobs;
    req.symbols = &symbols;
    req.policy = policy;
    req.policy_options.placement = placement;
    auto out = sim::run_policy(registry, req);
    if (!out.is_ok()) {
      state.SkipWithError(out.status().message().c_str());
      return;
    }
    state.counters["avg_jct_s"] = out->summary.avg_jct_s;
    state.counters["preemptions"] = static_cast<double>(out->summary.preemptions);
    state.counters["events"] = static_cast<double>(out->result.events);
  }
  state.counters["jobs"] = static_cast<double>(jobs.size());
  state.counters["gpus"] = cluster.gpu_count();
  state.counters["peak_rss_mb"] = peak_rss_mb();
}

void BM_Philly(benchmark::State& state, const std::string& policy) {
  static const auto trace =
      trace::read_trace_file(BOREAS_SOURCE_DIR "/data/traces/philly-sia/philly.csv.gz", trace::ReadOptions{});
  if (!trace.is_ok()) {
    state.SkipWithError(trace.status().message().c_str());
    return;
  }
  static const Cluster cluster = philly_cluster();
  run(state, cluster, trace->jobs, trace->symbols, policy, "count");
}

// Philly-like: mostly 1-GPU jobs, heavy-tailed durations, Poisson arrivals at ≈ 0.8 offered load.
testing::JobListBuilder synthetic(uint32_t n, uint32_t cluster_gpus) {
  std::mt19937_64 rng(42);
  const uint32_t sizes[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 8, 16};
  std::lognormal_distribution<double> duration(7.0, 1.6);  // median ≈ 1,100 s
  double mean_gpu_s = 0;
  for (uint32_t s : sizes) {
    mean_gpu_s += s;
  }
  mean_gpu_s = mean_gpu_s / 20 * std::exp(7.0 + 1.6 * 1.6 / 2);
  std::exponential_distribution<double> gap(0.8 * cluster_gpus / mean_gpu_s);
  testing::JobListBuilder b;
  b.jobs().reserve(n);
  double t = 0;
  for (uint32_t i = 0; i < n; ++i) {
    t += gap(rng);
    b.add(static_cast<int64_t>(t), sizes[rng() % 20], 1 + static_cast<int64_t>(duration(rng)));
  }
  return b;
}

void BM_Synthetic1M(benchmark::State& state) {
  static const Cluster cluster = testing::uniform_cluster(390, 32, 8);  // 99,840 GPUs
  static testing::JobListBuilder jobs = synthetic(1'000'000, cluster.gpu_count());
  run(state, cluster, jobs.jobs(), jobs.symbols(), "fifo", "pack");
}

BENCHMARK_CAPTURE(BM_Philly, fifo, std::string("fifo"))->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_Philly, las, std::string("las"))->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_Philly, gittins, std::string("gittins"))->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Synthetic1M)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace boreas
