// Trace reading speed and memory (issue 3): Philly CSV < 100 ms, 1,000,000 native JSONL jobs
// read < 2 s, <= 200 bytes held per job. Run: build-bench/bench/bench_trace (see PERFORMANCE.md).
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <zlib.h>

#include <string>

#include "trace/native.h"
#include "trace/synth.h"
#include "trace/trace.h"

namespace boreas::trace {
namespace {

const std::string kPhilly = std::string(BOREAS_SOURCE_DIR) + "/data/traces/philly-sia/philly.csv.gz";
const std::string kMillion = std::string(BOREAS_BINARY_DIR) + "/bench/million.jsonl";
constexpr uint64_t kMillionJobs = 1'000'000;

std::string inflate_file(const std::string& path) {
  gzFile gz = gzopen(path.c_str(), "rb");
  std::string text;
  char buf[1 << 16];
  int n = 0;
  while (gz != nullptr && (n = gzread(gz, buf, sizeof buf)) > 0) {
    text.append(buf, static_cast<size_t>(n));
  }
  if (gz != nullptr) {
    gzclose(gz);
  }
  return text;
}

// Writes the million-job file once per process (Philly preset, seed 1).
const std::string& million_file() {
  static const bool written = [] {
    SynthSpec spec = *synth_preset("philly");
    spec.jobs = kMillionJobs;
    return write_trace_file(synthesize(spec), kMillion).is_ok();
  }();
  static const std::string path = written ? kMillion : "";
  return path;
}

void BM_PhillyCsvFromGzip(benchmark::State& state) {
  for (auto _ : state) {
    auto t = read_trace_file(kPhilly, {});
    benchmark::DoNotOptimize(t);
    state.counters["jobs"] = t.is_ok() ? static_cast<double>(t->jobs.size()) : -1;
  }
}
BENCHMARK(BM_PhillyCsvFromGzip)->Unit(benchmark::kMillisecond);

void BM_PhillyCsvParseOnly(benchmark::State& state) {
  const std::string text = inflate_file(kPhilly);
  for (auto _ : state) {
    auto t = read_trace_string(text, "philly.csv", {});
    benchmark::DoNotOptimize(t);
    state.counters["jobs"] = t.is_ok() ? static_cast<double>(t->jobs.size()) : -1;
  }
}
BENCHMARK(BM_PhillyCsvParseOnly)->Unit(benchmark::kMillisecond);

void BM_NativeJsonlMillionRead(benchmark::State& state) {
  const std::string& path = million_file();
  for (auto _ : state) {
    auto t = read_trace_file(path, {});
    benchmark::DoNotOptimize(t);
    state.counters["jobs"] = t.is_ok() ? static_cast<double>(t->jobs.size()) : -1;
  }
}
BENCHMARK(BM_NativeJsonlMillionRead)->Unit(benchmark::kMillisecond)->Iterations(3);

// Bytes handed out by malloc: small blocks in the arena plus large blocks mapped on their own.
size_t heap_in_use() {
  const auto info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

// Heap bytes still allocated while a million-job trace is held, per job (mallinfo2).
void BM_BytesHeldPerJob(benchmark::State& state) {
  const std::string& path = million_file();
  for (auto _ : state) {
    malloc_trim(0);
    const size_t before = heap_in_use();
    auto t = read_trace_file(path, {});
    const size_t after = heap_in_use();
    const double jobs = t.is_ok() ? static_cast<double>(t->jobs.size()) : 1;
    state.counters["bytes_per_job"] = static_cast<double>(after - before) / jobs;
    state.counters["jobspec_bytes"] = sizeof(JobSpec);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_BytesHeldPerJob)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_SynthMillion(benchmark::State& state) {
  SynthSpec spec = *synth_preset("philly");
  spec.jobs = kMillionJobs;
  for (auto _ : state) {
    auto t = synthesize(spec);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_SynthMillion)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_NativeJsonlMillionWrite(benchmark::State& state) {
  SynthSpec spec = *synth_preset("philly");
  spec.jobs = kMillionJobs;
  const Trace t = synthesize(spec);
  const std::string out = std::string(BOREAS_BINARY_DIR) + "/bench/million-write.jsonl";
  for (auto _ : state) {
    benchmark::DoNotOptimize(write_trace_file(t, out));
  }
}
BENCHMARK(BM_NativeJsonlMillionWrite)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace boreas::trace

BENCHMARK_MAIN();
