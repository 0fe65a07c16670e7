// The GPU type map and the check for jobs that can never run on a cluster.
#include <gtest/gtest.h>

#include "trace/fit.h"
#include "trace/type_map.h"

namespace boreas::trace {
namespace {

const std::string kFixtures = std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/traces/";

GpuType type(std::string name, std::vector<std::string> aliases, double memory_gib) {
  GpuType t;
  t.name = std::move(name);
  t.aliases = std::move(aliases);
  t.memory_gib = memory_gib;
  return t;
}

// One 8-GPU A100-80G node and one 8-GPU H100-SXM node; the catalog also knows the V100.
Cluster typed_cluster() {
  Cluster c;
  c.name = "typed-16";
  EXPECT_TRUE(c.catalog.add(type("A100-80G", {"A100", "A100-SXM4-80GB"}, 80)));
  EXPECT_TRUE(c.catalog.add(type("H100-SXM", {"H100", "H100-80GB-HBM3"}, 80)));
  EXPECT_TRUE(c.catalog.add(type("V100-16G", {"V100"}, 16)));
  EXPECT_TRUE(c.catalog.add(type("A100-40G", {"A100-SXM4-40GB"}, 40)));
  for (uint32_t i = 0; i < 2; ++i) {
    Node n;
    n.name = "node" + std::to_string(i);
    n.gpu_type = GpuTypeId(i);
    n.gpu_count = 8;
    n.first_gpu = 8 * i;
    c.nodes.push_back(n);
  }
  return c;
}

// Jobs named "j<i>" asking for `gpus` GPUs of `types`, one a second.
Trace jobs(const std::vector<std::pair<uint32_t, std::string>>& specs) {
  Trace t;
  for (const auto& [gpus, types] : specs) {
    JobSpec j;
    j.id = JobId(static_cast<uint32_t>(t.jobs.size()));
    j.name = t.symbols.add("j" + std::to_string(t.jobs.size()));
    j.gpus = gpus;
    j.gpu_types = t.symbols.intern(types);
    j.submit = Time::from_seconds(static_cast<int64_t>(t.jobs.size()));
    j.duration = Duration::seconds(10);
    t.jobs.push_back(j);
  }
  return t;
}

TEST(FindUnfitJobs, ToolSpellingsFitAndEachCauseIsNamed) {
  const Cluster c = typed_cluster();
  const Trace t = jobs({{8, "nvidia_a100-sxm4-80gb"},  // fits: the A100-80G node
                        {4, "NVIDIA H100 80GB HBM3"},  // fits
                        {16, ""},                      // fits: any type, 16 GPUs in all
                        {0, "rtx4090"},                // CPU-only: no GPU asked
                        {1, "rtx4090"},                // unknown
                        {2, "V100"},                   // in the catalog, not in the cluster
                        {9, "a100"},                   // 9 > the 8 A100-80G
                        {17, ""},                      // 17 > 16 GPUs
                        {1, "A100-SXM4"},              // 40 or 80 GB?
                        {8, "v100|h100"},              // the H100s can take it
                        {2, "rtx4090"}});
  const auto unfit = find_unfit_jobs(c, t);
  ASSERT_EQ(unfit.size(), 6u);
  EXPECT_EQ(unfit[0].job, JobId(4));
  EXPECT_EQ(unfit[0].reason, UnfitReason::kUnknownType);
  EXPECT_EQ(unfit[0].why, "GPU type 'rtx4090' matches no catalog type");
  EXPECT_EQ(unfit[1].reason, UnfitReason::kTypeNotInCluster);
  EXPECT_EQ(unfit[1].why, "GPU type 'V100' (V100-16G) is not in the cluster, which has A100-80G ×8, H100-SXM ×8");
  EXPECT_EQ(unfit[2].reason, UnfitReason::kTooManyGpus);
  EXPECT_EQ(unfit[2].why, "more GPUs than the cluster's 8 of A100-80G");
  EXPECT_EQ(unfit[3].why, "more GPUs than the cluster's 16");
  EXPECT_EQ(unfit[4].reason, UnfitReason::kAmbiguousType);
  EXPECT_EQ(unfit[4].why, "GPU type 'A100-SXM4' is ambiguous: it could be A100-80G or A100-40G");
  EXPECT_EQ(unfit[5].job, JobId(10));
}

TEST(FindUnfitJobs, NoGpusAtAllIsTooManyGpus) {
  Cluster c = typed_cluster();
  c.nodes.clear();
  const auto unfit = find_unfit_jobs(c, jobs({{1, ""}, {0, ""}}));
  ASSERT_EQ(unfit.size(), 1u);
  EXPECT_EQ(unfit[0].reason, UnfitReason::kTooManyGpus);
  EXPECT_EQ(unfit[0].why, "more GPUs than the cluster's 0");
}

TEST(FindUnfitJobs, DescriptionGroupsByCauseWithTheTracesIds) {
  const Cluster c = typed_cluster();
  const Trace t = jobs({{1, "rtx4090"}, {1, "a100"}, {1, "rtx4090"}, {2, "V100"}, {1, "rtx4090"}});
  EXPECT_EQ(describe_unfit(find_unfit_jobs(c, t), t, c, 2),
            "4 of 5 jobs can never run on cluster 'typed-16' (16 GPUs):\n"
            "  3 job(s): GPU type 'rtx4090' matches no catalog type (jobs j0, j2, ...)\n"
            "  1 job(s): GPU type 'V100' (V100-16G) is not in the cluster, which has A100-80G ×8, H100-SXM ×8 "
            "(jobs j3)");
}

TEST(DropUnfitJobs, KeepsTheRestDenseAndFromZero) {
  const Cluster c = typed_cluster();
  Trace t = jobs({{1, "rtx4090"}, {1, "a100"}, {1, "rtx4090"}, {2, "h100"}});
  drop_unfit_jobs(t, find_unfit_jobs(c, t));
  ASSERT_EQ(t.jobs.size(), 2u);
  EXPECT_EQ(t.symbols.view(t.jobs[0].name), "j1");
  EXPECT_EQ(t.jobs[1].id, JobId(1));
  EXPECT_EQ(t.jobs[0].submit, Time::zero());
  EXPECT_EQ(t.jobs[1].submit, Time::from_seconds(2));
}

TEST(GpuTypeMap, RenamesMatchingNamesInEachList) {
  auto map = parse_gpu_type_map("RTX-4090=H100, a100-sxm4=A100-40G");
  ASSERT_TRUE(map.is_ok()) << map.status().message();
  Trace t = jobs({{1, "nvidia_rtx_4090"}, {1, "v100|NVIDIA A100-SXM4"}, {1, "a100"}});
  EXPECT_EQ(apply_gpu_type_map(t, *map), 2u);
  EXPECT_EQ(t.symbols.view(t.jobs[0].gpu_types), "H100");
  EXPECT_EQ(t.symbols.view(t.jobs[1].gpu_types), "v100|A100-40G");
  EXPECT_EQ(t.symbols.view(t.jobs[2].gpu_types), "a100");
  EXPECT_TRUE(find_unfit_jobs(typed_cluster(), t).size() == 1u);  // only A100-40G: not in the cluster
}

TEST(GpuTypeMap, BadMapsAreRefusedWithTheFix) {
  EXPECT_EQ(parse_gpu_type_map("a100").status().message(),
            "--gpu-type-map: expected FROM=TO (a trace's GPU type name = a catalog type), got 'a100'; e.g. "
            "--gpu-type-map nvidia-a100-80gb=A100-80G");
  EXPECT_EQ(parse_gpu_type_map("a100=A100-40G,A100=H100").status().message(),
            "--gpu-type-map: 'A100' is mapped twice (also as 'a100'); keep one of them");
  const auto map = parse_gpu_type_map("rtx4090=B300");
  ASSERT_TRUE(map.is_ok());
  EXPECT_EQ(check_gpu_type_map(*map, typed_cluster().catalog).message(),
            "--gpu-type-map: 'rtx4090=B300': 'B300' is not one GPU type of the catalog; map to one of: A100-80G, "
            "H100-SXM, V100-16G, A100-40G");
}

// The case: a Slurm export whose GRES names are Kubernetes/NVML spellings all fit.
TEST(FindUnfitJobs, SlurmExportWithToolSpellingsFitsItsCluster) {
  auto t = read_trace_file(kFixtures + "slurm_typed.txt", {});
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  ASSERT_EQ(t->jobs.size(), 8u);
  EXPECT_EQ(t->symbols.view(t->jobs[7].gpu_types), "nvidia_h100_80gb_hbm3");
  EXPECT_TRUE(find_unfit_jobs(typed_cluster(), *t).empty());
}

}  // namespace
}  // namespace boreas::trace
