// Property: moving stale finish events out of the engine's heap (EngineOptions::compact_events_from,
// sim/engine.cpp) changes no output. Preempting runs with physics (rate changes from throttling,
// failures) are simulated with the heap compacted from its second event on and never compacted,
// and every output file (but the wall time) must be byte for byte the same.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/output.h"
#include "support/cluster_builder.h"
#include "support/peer_case.h"
#include "support/sim_run.h"

namespace boreas {
namespace {

// Hot air-cooled racks (inlet 35 °C, 400 W GPUs), so GPUs throttle and running jobs change rate.
Cluster hot_cluster() { return testing::hot_air_cluster(2, 4, 8, 35); }

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string without_wall_time(const std::string& json) {
  std::stringstream in(json), out;
  for (std::string line; std::getline(in, line);) {
    out << (line.find("wall_time_s") == std::string::npos ? line + "\n" : "");
  }
  return out.str();
}

TEST(EventCompactionProperty, OutputsEqualTheUncompactedRun) {
  const auto jobs = testing::read_peer_case(BOREAS_SOURCE_DIR "/data/peer-cases/synth1000.csv");
  const Cluster cluster = hot_cluster();
  const std::filesystem::path dir = std::filesystem::path(BOREAS_BINARY_DIR) / "event_compaction_test";
  for (const char* policy : {"las", "srtf", "gittins"}) {
    for (uint64_t seed : {1u, 2u}) {
      std::string files[2][5];
      uint64_t preemptions = 0;
      for (int compacted = 0; compacted < 2; ++compacted) {
        sim::EngineOptions engine;
        engine.seed = seed;
        engine.preemption_overhead = Duration::seconds(10);
        engine.physics.on = *sim::parse_physics("throughput,power,thermal,failures");
        engine.compact_events_from = compacted ? 2 : SIZE_MAX;
        auto out = testing::simulate({&cluster, jobs.jobs, &jobs.symbols}, policy, {}, engine);
        ASSERT_TRUE(out.is_ok()) << out.status().message();
        preemptions = out->summary.preemptions;
        const std::filesystem::path d = dir / (std::string(policy) + std::to_string(compacted));
        std::filesystem::remove_all(d);
        ASSERT_TRUE(sim::write_run(d.string(), *out, sim::OutputInfo{}, cluster, jobs.jobs, jobs.symbols).is_ok());
        const char* names[] = {"jobs.csv", "runs.csv", "timeseries.csv", "zones.csv", "summary.json"};
        for (int f = 0; f < 5; ++f) {
          files[compacted][f] = f == 4 ? without_wall_time(read_all(d / names[f])) : read_all(d / names[f]);
        }
      }
      EXPECT_GT(preemptions, 50u) << policy;  // stale finishes to move
      for (int f = 0; f < 5; ++f) {
        EXPECT_FALSE(files[0][f].empty());
        EXPECT_EQ(files[0][f], files[1][f]) << policy << " seed " << seed << " file " << f;
      }
    }
  }
}

}  // namespace
}  // namespace boreas
