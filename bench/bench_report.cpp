// The report on a Philly-sized comparison (82k jobs x 3 policies, synthetic): reading the run
// folders, writing the HTML page and writing the Chrome trace. Recorded in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "report/chrome_trace.h"
#include "report/html_report.h"
#include "report/synthetic_run.h"

namespace {

namespace fs = std::filesystem;

// Writes the three policy folders once per process.
const std::string& philly_sized_run() {
  static const std::string dir = [] {
    const fs::path root = fs::temp_directory_path() / "boreas-bench-report";
    fs::remove_all(root);
    const std::vector<std::string> policies{"fifo", "backfill", "hybrid-aware"};
    for (size_t p = 0; p < policies.size(); ++p) {
      boreas::report::write_synthetic_policy((root / policies[p]).string(), policies[p], 17 + p, {});
    }
    return root.string();
  }();
  return dir;
}

void BM_ReadRunDirs(benchmark::State& state) {
  for (auto _ : state) {
    auto runs = boreas::report::read_run_dirs({philly_sized_run()});
    benchmark::DoNotOptimize(runs);
  }
}
BENCHMARK(BM_ReadRunDirs)->Unit(benchmark::kMillisecond);

void BM_WriteHtmlReport(benchmark::State& state) {
  const std::string out = (fs::temp_directory_path() / "boreas-bench-report.html").string();
  for (auto _ : state) {
    const boreas::Status s = boreas::report::write_html_report({philly_sized_run()}, out, {});
    benchmark::DoNotOptimize(s);
  }
  state.counters["page_bytes"] = static_cast<double>(fs::file_size(out));
}
BENCHMARK(BM_WriteHtmlReport)->Unit(benchmark::kMillisecond);

void BM_WriteScheduleTrace(benchmark::State& state) {
  const std::string out = (fs::temp_directory_path() / "boreas-bench-trace.json").string();
  for (auto _ : state) {
    const boreas::Status s = boreas::report::write_schedule_trace({philly_sized_run()}, out);
    benchmark::DoNotOptimize(s);
  }
  state.counters["trace_bytes"] = static_cast<double>(fs::file_size(out));
}
BENCHMARK(BM_WriteScheduleTrace)->Unit(benchmark::kMillisecond);

}  // namespace
