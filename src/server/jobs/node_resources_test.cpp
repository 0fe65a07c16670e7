#include "server/jobs/node_resources.h"

#include <gtest/gtest.h>

#include <fstream>

#include "server/exec/cgroup.h"
#include "server/jobs/job_json.h"
#include "server/testing/test_cluster.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

// Two nodes of 4 GPUs, 16 CPUs and 64 GiB each (tests/server/local.yaml's shape).
Cluster local_cluster() {
  Cluster c = test_cluster(2, 4);
  for (Node& n : c.nodes) {
    n.cpu_milli = 16000;
    n.memory_mib = 64 * 1024;
  }
  return c;
}

// A job placed on `node` (-1: unplaced) with GPUs 0..gpus-1 there.
LiveJob job(uint32_t id, uint32_t gpus, int32_t node = -1) {
  LiveJob j;
  j.id = JobId(id);
  j.request.command = {"true"};
  j.request.gpus = gpus;
  if (node >= 0) {
    JobNode p{node, {}};
    for (uint32_t g = 0; g < gpus; ++g) {
      p.gpus.push_back(g);
    }
    j.placement.push_back(p);
  }
  return j;
}

int32_t node_of(const LiveJob& j) { return j.placement.empty() ? -1 : j.placement.front().node; }

TEST(JobResources, DefaultIsTheJobsShareOfItsNode) {
  const Cluster c = local_cluster();
  const JobResources two_gpus = job_resources(job(1, 2).request, c.nodes[0]);
  EXPECT_EQ(two_gpus.cpu_milli, 8000);  // 2 of 4 GPUs: half the node
  EXPECT_EQ(two_gpus.memory_mib, 32 * 1024);
  const JobResources cpu_only = job_resources(job(2, 0).request, c.nodes[0]);
  EXPECT_EQ(cpu_only.cpu_milli, 1000);       // one CPU
  EXPECT_EQ(cpu_only.memory_mib, 4 * 1024);  // 64 GiB / 16 CPUs
  SubmitRequest asked = job(3, 0).request;
  asked.cpu_milli = 2500;
  asked.memory_mib = 100;
  const JobResources explicit_request = job_resources(asked, c.nodes[0]);
  EXPECT_EQ(explicit_request.cpu_milli, 2500);
  EXPECT_EQ(explicit_request.memory_mib, 100);
}

TEST(JobResources, NodesWithoutCpusOrMemoryAreNotCounted) {
  const Cluster c = test_cluster(1, 4);  // no cpus, no memory_gib
  const JobResources r = job_resources(job(1, 0).request, c.nodes[0]);
  EXPECT_EQ(r.cpu_milli, 0);
  EXPECT_EQ(r.memory_mib, 0);
  std::map<uint32_t, LiveJob> none;
  NodeLoad load(c, none);
  for (uint32_t i = 1; i <= 100; ++i) {
    LiveJob j = job(i, 0);
    EXPECT_EQ(load.admit(j, {false}), std::nullopt);
  }
}

// The issue's escape: 60 `gpus: 0` jobs all started at once. Now each holds one CPU: 16 fit on
// each 16-CPU node, the 33rd waits and says why.
TEST(NodeLoad, CpuOnlyJobsFillNodesByTheirCpus) {
  const Cluster c = local_cluster();
  std::map<uint32_t, LiveJob> none;
  NodeLoad load(c, none);
  int on_first = 0;
  int on_second = 0;
  for (uint32_t i = 1; i <= 32; ++i) {
    LiveJob j = job(i, 0);
    ASSERT_EQ(load.admit(j, {false, false}), std::nullopt) << "job " << i;
    (node_of(j) == 0 ? on_first : on_second) += 1;
  }
  EXPECT_EQ(on_first, 16);
  EXPECT_EQ(on_second, 16);
  LiveJob extra = job(33, 0);
  const auto why = load.admit(extra, {false, false});
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(node_of(extra), -1);
  EXPECT_NE(why->find("running jobs hold 16 of 16 CPUs"), std::string::npos) << *why;
}

TEST(NodeLoad, CountsRunningJobsAndSkipsDrainedNodes) {
  const Cluster c = local_cluster();
  std::map<uint32_t, LiveJob> jobs;
  jobs[1] = job(1, 4, 0);  // the whole of node 0: 16 CPUs, 64 GiB
  jobs[1].state = JobState::kRunning;
  jobs[2] = job(2, 2);  // pending: holds nothing
  NodeLoad load(c, jobs);
  LiveJob cpu_job = job(3, 0);
  ASSERT_EQ(load.admit(cpu_job, {false, false}), std::nullopt);
  EXPECT_EQ(node_of(cpu_job), 1);  // node 0 is full
  LiveJob drained = job(4, 0);
  EXPECT_TRUE(load.admit(drained, {false, true}).has_value());  // node 1 drained, node 0 full
}

TEST(NodeLoad, AGpuJobWaitsWhenItsNodesCpusAreTaken) {
  const Cluster c = local_cluster();
  std::map<uint32_t, LiveJob> jobs;
  for (uint32_t i = 1; i <= 10; ++i) {  // 10 CPU-only jobs of 1 CPU on node 0
    jobs[i] = job(i, 0, 0);
    jobs[i].state = JobState::kRunning;
  }
  NodeLoad load(c, jobs);
  LiveJob gpu_job = job(11, 2, 0);  // wants 8 CPUs; 6 are left
  const auto why = load.admit(gpu_job, {false, false});
  ASSERT_TRUE(why.has_value());
  EXPECT_TRUE(gpu_job.placement.empty());
  EXPECT_NE(why->find("needs 8 CPUs and 32768 MiB on node0"), std::string::npos) << *why;
  LiveJob small = job(12, 1, 0);  // 4 CPUs fit
  EXPECT_EQ(load.admit(small, {false, false}), std::nullopt);
}

// A gang of 4 + 4 GPUs holds each node's share there (16 CPUs on each 4-GPU node); with one CPU
// taken on node 1 it waits, and says where.
TEST(NodeLoad, AGangNeedsRoomOnEveryNodeItSpans) {
  const Cluster c = local_cluster();
  std::map<uint32_t, LiveJob> jobs;
  jobs[1] = job(1, 0, 1);
  jobs[1].state = JobState::kRunning;
  NodeLoad load(c, jobs);
  LiveJob gang = job(2, 8, 0);
  gang.placement = {JobNode{0, {0, 1, 2, 3}}, JobNode{1, {0, 1, 2, 3}}};
  const auto why = load.admit(gang, {false, false});
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("needs 16 CPUs and 65536 MiB on node1"), std::string::npos) << *why;
  EXPECT_TRUE(gang.placement.empty());
  NodeLoad empty(c, {});
  LiveJob again = job(3, 8, 0);
  again.placement = {JobNode{0, {0, 1, 2, 3}}, JobNode{1, {0, 1, 2, 3}}};
  EXPECT_EQ(empty.admit(again, {false, false}), std::nullopt);
}

TEST(NodeLoad, RequestsLargerThanEveryNodeAreRefusedAtSubmit) {
  const Cluster c = local_cluster();
  SubmitRequest r = job(1, 0).request;
  r.cpu_milli = 17000;
  const Status cpus = check_resources_fit(r, c);
  ASSERT_FALSE(cpus.is_ok());
  EXPECT_NE(cpus.message().find("$.cpus: 17 CPUs can never fit: the largest node has 16"), std::string::npos);
  r.cpu_milli = 16000;
  r.memory_mib = 65 * 1024;
  const Status memory = check_resources_fit(r, c);
  ASSERT_FALSE(memory.is_ok());
  EXPECT_NE(memory.message().find("$.memory: 66560 MiB"), std::string::npos) << memory.message();
  r.memory_mib = 64 * 1024;
  EXPECT_TRUE(check_resources_fit(r, c).is_ok());
}

TEST(ResourceRequest, CpusAndMemoryParseAndRoundTrip) {
  auto r = parse_submit(R"({"command":["true"],"cpus":0.5,"memory":"4G"})");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->cpu_milli, 500);
  EXPECT_EQ(r->memory_mib, 4096);
  auto again = parse_submit(submit_to_json(*r).dump());
  ASSERT_TRUE(again.is_ok()) << again.status().message();
  EXPECT_EQ(again->cpu_milli, 500);
  EXPECT_EQ(again->memory_mib, 4096);
  for (const auto& [text, mib] : std::vector<std::pair<std::string, int64_t>>{
           {"512", 512}, {"\"512M\"", 512}, {"\"4GiB\"", 4096}, {"\"1T\"", 1024 * 1024}, {"\"2048K\"", 2}}) {
    auto m = parse_submit(R"({"command":["true"],"memory":)" + text + "}");
    ASSERT_TRUE(m.is_ok()) << text << ": " << m.status().message();
    EXPECT_EQ(m->memory_mib, mib) << text;
  }
  auto plain = parse_submit(R"({"command":["true"]})");
  ASSERT_TRUE(plain.is_ok());
  EXPECT_FALSE(submit_to_json(*plain).contains("cpus"));  // defaults are not written into the spec
}

TEST(ResourceRequest, BadValuesNameTheFieldAndTheFix) {
  for (const auto& [body, expected] : std::vector<std::pair<std::string, std::string>>{
           {R"("cpus":0)", "$.cpus: 0 is out of range"},
           {R"("cpus":"4")", "$.cpus: expected a number"},
           {R"("cpus":5000)", "$.cpus: 5000 is out of range"},
           {R"("memory":"4X")", "$.memory: unknown unit `X`"},
           {R"("memory":"G")", "$.memory: `G` does not start with a whole number"},
           {R"("memory":0)", "$.memory: 0 is out of range"},
           {R"("memory":-3)", "$.memory: expected an integer or a string"}}) {
    auto r = parse_submit(R"({"command":["true"],)" + body + "}");
    ASSERT_FALSE(r.is_ok()) << body;
    EXPECT_NE(r.status().message().find(expected), std::string::npos) << r.status().message();
  }
}

// A plain directory stands in for a job's cgroup: the files the kernel would offer are created
// first; a file it lacks (its controller not enabled) is skipped, not created.
TEST(CgroupLimits, WritesCpuMaxAndMemoryMaxWhereTheCgroupHasThem) {
  TempDir dir;
  std::ofstream(dir.path() + "/cpu.max") << "max 100000\n";
  std::ofstream(dir.path() + "/memory.max") << "max\n";
  ASSERT_TRUE(write_limits(dir.path(), {500, 256}).is_ok());
  EXPECT_EQ(read_whole_file(dir.path() + "/cpu.max"), "50000 100000");  // half a CPU per 100 ms
  EXPECT_EQ(read_whole_file(dir.path() + "/memory.max"), "268435456");
  TempDir bare;
  ASSERT_TRUE(write_limits(bare.path(), {2000, 1024}).is_ok());
  EXPECT_FALSE(std::ifstream(bare.path() + "/cpu.max").good());
  EXPECT_FALSE(std::ifstream(bare.path() + "/memory.max").good());
}

}  // namespace
}  // namespace boreas::server
