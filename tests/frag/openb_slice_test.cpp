// FGD's result in miniature on real data: a slice of the openb cluster with the default pod list.
// (Outside src/frag/ because it reads the cluster spec and the trace through config and trace.)

#include <gtest/gtest.h>

#include <string>

#include "config/cluster_spec.h"
#include "frag/study.h"
#include "trace/trace.h"

namespace boreas::frag {
namespace {

// A slice of openb (every 8th node) with the default pod list: FGD allocates at least as much
// as BestFit at 130 % arrived, on each of two seeds (the paper's result, in miniature).
TEST(FragOpenb, FgdAllocatesAtLeastAsMuchAsBestFitOnASlice) {
  const std::string root = BOREAS_SOURCE_DIR;
  auto cluster = config::load_cluster_file(root + "/examples/clusters/openb.yaml");
  ASSERT_TRUE(cluster.is_ok()) << cluster.status().message();
  auto trace = trace::read_trace_file(root + "/data/traces/alibaba-pai-gpu-2023/openb_pod_list_default.csv.gz", {});
  ASSERT_TRUE(trace.is_ok()) << trace.status().message();
  auto nodes = nodes_from_cluster(*cluster);
  auto pods = pods_from_jobs(trace->jobs, trace->symbols, *cluster);
  ASSERT_TRUE(nodes.is_ok() && pods.is_ok());
  StudyInput in;
  for (size_t i = 0; i < nodes->size(); i += 8) {
    in.nodes.push_back((*nodes)[i]);
  }
  in.pods = *pods;
  in.policies = {Policy::kFgd, Policy::kBestFit};
  in.seeds = {42, 43};
  in.threads = 2;
  const auto r = run_study(in);
  for (size_t s = 0; s < 2; ++s) {
    const double fgd = r[0].runs[s].metrics.gpu_alloc_pct_at_130;
    const double bestfit = r[1].runs[s].metrics.gpu_alloc_pct_at_130;
    EXPECT_GE(fgd, bestfit) << "seed " << in.seeds[s] << ": fgd " << fgd << " bestfit " << bestfit;
  }
}

}  // namespace
}  // namespace boreas::frag
