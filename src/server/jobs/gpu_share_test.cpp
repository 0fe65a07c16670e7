// A submit's share of one GPU: `gpus` fractions, `gpu_memory`, the share a GPU gives it, and the
// variables the executor sets from it (docs/live.md, "Sharing a GPU").
#include "server/jobs/gpu_share.h"

#include <gtest/gtest.h>

#include "server/exec/executor.h"
#include "server/jobs/job_json.h"

namespace boreas::server {
namespace {

constexpr uint64_t kGib = uint64_t{1} << 30;

Result<SubmitRequest> submit(const std::string& fields) {
  return parse_submit(R"({"command":["true"],)" + fields + "}");
}

void expect_refused(const std::string& fields, const std::string& part) {
  auto r = submit(fields);
  ASSERT_FALSE(r.is_ok()) << fields;
  EXPECT_NE(r.status().message().find(part), std::string::npos) << fields << ": " << r.status().message();
}

TEST(GpuShareRequest, AFractionIsAShareOfOneGpu) {
  auto half = submit(R"("gpus":0.5)");
  ASSERT_TRUE(half.is_ok()) << half.status().message();
  EXPECT_EQ(half->gpus, 1u);
  EXPECT_EQ(half->gpu_milli, 500u);
  EXPECT_TRUE(half->shares_gpu());
  auto fine = submit(R"("gpus":0.125)");
  ASSERT_TRUE(fine.is_ok());
  EXPECT_EQ(fine->gpu_milli, 125u);
  auto two = submit(R"("gpus":2)");
  ASSERT_TRUE(two.is_ok());
  EXPECT_EQ(two->gpus, 2u);
  EXPECT_FALSE(two->shares_gpu());
}

TEST(GpuShareRequest, RefusesWhatIsNoShareSayingWhy) {
  expect_refused(R"("gpus":1.5)", "$.gpus: 1.5 is more than one GPU but not a whole number");
  expect_refused(R"("gpus":0.0)", "is not a share");
  expect_refused(R"("gpus":-0.5)", "is negative");
  expect_refused(R"("gpus":-2)", "is negative");
  expect_refused(R"("gpus":0.0005)", "finer than a thousandth");
  expect_refused(R"("gpus":0.9999)", "finer than a thousandth");
  expect_refused(R"("gpus":"0.5")", "is not a number");
  expect_refused(R"("gpus":4097)", "is more than 4096");
  expect_refused(R"("gpus":2,"gpu_memory":"20G")", "$.gpu_memory: a GPU memory limit is for a job on a share of one GPU, but gpus is 2");
  expect_refused(R"("gpus":0,"gpu_memory":"20G")", "but gpus is 0");
  expect_refused(R"("gpu_memory":"20X")", "$.gpu_memory: unknown unit `X`");
  expect_refused(R"("gpu_memory":"2T")", "$.gpu_memory: \"2T\" is out of range (1 MiB to 1 TiB)");
}

TEST(GpuShareRequest, MemoryAloneAsksForOneGpuAndRoundTrips) {
  auto mem = submit(R"("gpu_memory":"20G")");
  ASSERT_TRUE(mem.is_ok()) << mem.status().message();
  EXPECT_EQ(mem->gpus, 1u);
  EXPECT_EQ(mem->gpu_milli, 0u);
  EXPECT_EQ(mem->gpu_memory_bytes, 20 * kGib);
  auto both = submit(R"("gpus":0.25,"gpu_memory":20480)");
  ASSERT_TRUE(both.is_ok());
  const nlohmann::json j = submit_to_json(*both);
  EXPECT_EQ(j["gpus"], 0.25);
  EXPECT_EQ(j["gpu_memory"], 20480);
  auto again = parse_submit(j.dump(), SpecOrigin::kStore);
  ASSERT_TRUE(again.is_ok()) << again.status().message();
  EXPECT_EQ(again->gpu_milli, 250u);
  EXPECT_EQ(again->gpu_memory_bytes, 20 * kGib);
  auto old = parse_submit(R"({"command":["true"],"gpus":1})", SpecOrigin::kStore);  // stored before sharing
  ASSERT_TRUE(old.is_ok());
  EXPECT_FALSE(old->shares_gpu());
  EXPECT_EQ(submit_to_json(*old)["gpus"], 1);
}

TEST(GpuShareRequest, TheShareAGpuGivesFollowsWhatWasAsked) {
  SubmitRequest r;
  r.gpus = 1;
  r.gpu_milli = 500;
  EXPECT_EQ(share_on(r, 80 * kGib).milli, 500u);
  EXPECT_EQ(share_on(r, 80 * kGib).bytes, 40 * kGib);  // half the memory with half the compute
  r.gpu_milli = 0;
  r.gpu_memory_bytes = 20 * kGib;
  EXPECT_EQ(share_on(r, 80 * kGib).milli, 250u);  // a quarter of the memory: a quarter of the compute
  EXPECT_EQ(share_on(r, 24 * kGib).milli, 834u);  // 20/24 = 0.8333, rounded up
  EXPECT_EQ(share_on(r, 24 * kGib).bytes, 20 * kGib);
  EXPECT_EQ(share_on(r, 16 * kGib).milli, 0u);    // does not fit a 16 GiB GPU
  EXPECT_EQ(share_on(r, 0).milli, 0u);            // a GPU of unknown memory is never shared
  r.gpu_milli = 100;
  EXPECT_EQ(share_on(r, 80 * kGib).milli, 100u);
  EXPECT_EQ(share_on(r, 80 * kGib).bytes, 20 * kGib);
  EXPECT_EQ(describe_request(r), "0.1 GPU with 20 GiB");
  EXPECT_EQ(describe_share(250, 20 * kGib + (uint64_t{1} << 20)), "0.25 GPU, 20481 MiB");
}

TEST(GpuShareEnv, MpsVariablesFromTheShare) {
  LaunchRequest whole;
  EXPECT_TRUE(share_env(whole).empty());
  LaunchRequest half;
  half.gpu_share_milli = 500;
  half.gpu_share_bytes = 40 * kGib;
  EXPECT_EQ(share_env(half), (std::vector<std::string>{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50",
                                                       "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=40G",
                                                       "BOREAS_GPU_MEMORY_BYTES=42949672960"}));
  LaunchRequest tiny;
  tiny.gpu_share_milli = 5;  // 0.5 %: at least 1
  tiny.gpu_share_bytes = 1536 * (uint64_t{1} << 20);
  EXPECT_EQ(share_env(tiny), (std::vector<std::string>{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=1",
                                                       "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=1536M",
                                                       "BOREAS_GPU_MEMORY_BYTES=1610612736"}));
  EXPECT_TRUE(is_reserved_env("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"));
  EXPECT_TRUE(is_reserved_env("CUDA_MPS_PINNED_DEVICE_MEM_LIMIT"));
  EXPECT_TRUE(is_reserved_env("BOREAS_GPU_MEMORY_BYTES"));
}

}  // namespace
}  // namespace boreas::server
