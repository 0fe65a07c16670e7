#pragma once
// A deterministic synthetic `boreas sim --out` policy folder of any size, for the page-size test
// and the benchmarks (a Philly-sized comparison is too large to commit as a fixture).

#include <cstdint>
#include <string>

namespace boreas::report {

struct SyntheticRunSize {
  int64_t jobs = 82'000;        // the Philly trace's job count
  int64_t samples = 90 * 288;   // 90 days every 300 s
  int64_t nodes = 550;          // 11 nodes per rack
};

// Writes summary.json, jobs.csv, runs.csv and timeseries.csv into `dir` (created).
void write_synthetic_policy(const std::string& dir, const std::string& policy, uint64_t seed,
                            const SyntheticRunSize& size);

}  // namespace boreas::report
