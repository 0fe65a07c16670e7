#include "report/heatmap.h"

#include <gtest/gtest.h>

namespace boreas::report {
namespace {

JobRun run_on(std::vector<std::string> nodes, int64_t gpus, int64_t start_s, int64_t end_s) {
  JobRun run;
  run.nodes = std::move(nodes);
  run.gpus = gpus;
  run.start_us = start_s * 1'000'000;
  run.end_us = end_s * 1'000'000;
  return run;
}

TEST(RackOfNode, EverythingBeforeTheLastDash) {
  EXPECT_EQ(rack_of_node("r01-n02"), "r01");
  EXPECT_EQ(rack_of_node("z1-r03-n07"), "z1-r03");
  EXPECT_EQ(rack_of_node("node7"), "node7");
  EXPECT_EQ(rack_of_node("-x"), "-x");
}

TEST(RackHeatmap, MeanBusyGpusPerRackAndBin) {
  // Horizon 7200 s in two bins of 3600 s. The 8-GPU job spreads 4 GPUs on each of its nodes.
  const std::vector<JobRun> runs{run_on({"r01-n01"}, 4, 0, 3600), run_on({"r01-n02", "r02-n01"}, 8, 0, 7200),
                                 run_on({"r02-n02"}, 2, 1800, 3600)};
  const RackHeatmap map = rack_heatmap(runs, 2, 10);
  EXPECT_EQ(map.racks, (std::vector<std::string>{"r01", "r02"}));
  EXPECT_EQ(map.bin_s, 3600);
  EXPECT_EQ(map.cells[0], (std::vector<double>{8, 4}));
  EXPECT_EQ(map.cells[1], (std::vector<double>{5, 4}));  // 4 + 2 GPUs busy for half of the bin
}

TEST(RackHeatmap, KeepsTheBusiestRacks) {
  const std::vector<JobRun> runs{run_on({"a-1"}, 1, 0, 100), run_on({"b-1"}, 8, 0, 100), run_on({"c-1"}, 2, 0, 100)};
  const RackHeatmap map = rack_heatmap(runs, 4, 2);
  EXPECT_EQ(map.racks, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(map.racks_total, 3u);
  EXPECT_EQ(map.cells[0], (std::vector<double>{8, 8, 8, 8}));
}

TEST(RackHeatmap, NoRunsGiveAnEmptyMap) {
  const RackHeatmap map = rack_heatmap({}, 10, 10);
  EXPECT_TRUE(map.racks.empty());
  EXPECT_TRUE(map.cells.empty());
}

}  // namespace
}  // namespace boreas::report
