#include "slurm/state.h"

#include <gtest/gtest.h>

#include "slurm/test_fixture.h"

namespace boreas::slurm {
namespace {

using testing::fixture;

const SlurmJob& find(const std::vector<SlurmJob>& jobs, uint64_t id) {
  for (const auto& j : jobs) {
    if (j.id == id) {
      return j;
    }
  }
  throw std::runtime_error("no job " + std::to_string(id));
}

using Names = std::vector<std::string>;
using Idx = std::vector<uint32_t>;

// squeue-running.json (Slurm 22.05.8, tests/fixtures/slurm/README.md): job 1 pinned to n3 and
// running on 2 GPUs, job 2 a 2-node gang on n1,n4, job 3 ran `exit 3`, job 4 still held.
TEST(SlurmState, JobsFromRealSqueue) {
  auto jobs = parse_jobs_json(fixture("squeue-running.json"));
  ASSERT_TRUE(jobs.is_ok()) << jobs.status().message();
  ASSERT_EQ(jobs->size(), 4u);
  const SlurmJob& one = find(*jobs, 1);
  EXPECT_EQ(one.state, "RUNNING");
  EXPECT_EQ(one.nodes, Names{"n3"});
  EXPECT_EQ(one.required_nodes, Names{"n3"});
  EXPECT_EQ(one.gpu_indexes, (std::vector<Idx>{{0, 1}}));
  EXPECT_GT(one.start_time, 0);
  EXPECT_EQ(one.end_time, 0);  // a running job's end_time is Slurm's time-limit guess: not an end
  const SlurmJob& gang = find(*jobs, 2);
  EXPECT_EQ(gang.nodes, (Names{"n1", "n4"}));
  EXPECT_EQ(gang.gpu_indexes, (std::vector<Idx>{{0, 1, 2, 3}, {0, 1, 2, 3}}));
  const SlurmJob& failed = find(*jobs, 3);
  EXPECT_EQ(failed.state, "FAILED");
  EXPECT_TRUE(failed.finished());
  EXPECT_EQ(failed.exit_code, 3);  // the raw wait status 768
  EXPECT_EQ(failed.reason, "NonZeroExitCode");
  const SlurmJob& held = find(*jobs, 4);
  EXPECT_TRUE(held.held());
  EXPECT_TRUE(held.nodes.empty());
  EXPECT_FALSE(held.finished());
}

// squeue-finished.json: the same cluster later: job 2 requeued after its node was set DOWN,
// job 4 cancelled while held, job 5 completed.
TEST(SlurmState, RequeuedCancelledCompleted) {
  auto jobs = parse_jobs_json(fixture("squeue-finished.json"));
  ASSERT_TRUE(jobs.is_ok()) << jobs.status().message();
  const SlurmJob& gang = find(*jobs, 2);
  EXPECT_EQ(gang.state, "PENDING");
  EXPECT_EQ(gang.reason, "BeginTime");
  EXPECT_EQ(gang.restarts, 1u);
  EXPECT_FALSE(gang.held());
  EXPECT_EQ(find(*jobs, 4).state, "CANCELLED");
  const SlurmJob& done = find(*jobs, 5);
  EXPECT_EQ(done.state, "COMPLETED");
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_GE(done.end_time, done.start_time);
  EXPECT_GT(done.end_time, 0);
}

// squeue-held-*.json (tests/fixtures/slurm/README.md): job 1 (`sleep 4`) submitted held and
// released 3 s later, job 2 held and cancelled before it ran, job 3 (`sleep 1`) ran at once;
// captured while job 1 runs, then after it completed. Slurm's start is the run's, not the submit's.
TEST(SlurmState, StartedAtIsWhenSlurmRanTheJob) {
  auto running = parse_jobs_json(fixture("squeue-held-running.json"));
  auto done = parse_jobs_json(fixture("squeue-held-done.json"));
  ASSERT_TRUE(running.is_ok() && done.is_ok());
  const SlurmJob& r1 = find(*running, 1);
  EXPECT_EQ(r1.state, "RUNNING");
  EXPECT_EQ(r1.comment, "boreas:7");
  EXPECT_GE(r1.started_at() - r1.submit_time, 3);  // held 3 s before the release
  EXPECT_EQ(r1.end_time, 0);                       // its end_time in the JSON is a time-limit guess
  const SlurmJob& d1 = find(*done, 1);
  EXPECT_EQ(d1.state, "COMPLETED");
  EXPECT_EQ(d1.started_at(), r1.started_at());
  EXPECT_EQ(d1.end_time - d1.started_at(), 4);  // sleep 4
  // Cancelled while held: Slurm writes the cancel time as its start_time; it never ran.
  for (const auto* jobs : {&*running, &*done}) {
    const SlurmJob& cancelled = find(*jobs, 2);
    EXPECT_EQ(cancelled.state, "CANCELLED");
    EXPECT_EQ(cancelled.start_time, cancelled.end_time);
    EXPECT_EQ(cancelled.started_at(), 0);
  }
  const SlurmJob& quick = find(*done, 3);
  EXPECT_EQ(quick.started_at(), quick.start_time);
  EXPECT_EQ(quick.end_time - quick.started_at(), 1);  // sleep 1
  EXPECT_LT(quick.started_at(), d1.started_at());    // it ran while job 1 was still held
}

TEST(SlurmState, NodesFromRealSinfo) {
  auto nodes = parse_nodes_json(fixture("sinfo-drain.json"));
  ASSERT_TRUE(nodes.is_ok()) << nodes.status().message();
  ASSERT_EQ(nodes->size(), 4u);
  const SlurmNode& n1 = (*nodes)[0];
  EXPECT_EQ(n1.name, "n1");
  EXPECT_EQ(n1.state, "mixed");
  EXPECT_TRUE(n1.in_service());
  EXPECT_EQ(gpu_count(n1.gres), 8u);
  EXPECT_EQ(n1.gres[0].type, "h100");
  EXPECT_EQ(n1.gres_used[0].indexes, (Idx{0, 1, 2, 3}));
  EXPECT_EQ(n1.features, (Names{"h100", "nvlink", "rack1"}));
  EXPECT_EQ(n1.cpus, 64u);
  EXPECT_EQ(n1.memory_mib, 1000000u);
  const SlurmNode& n2 = (*nodes)[1];
  EXPECT_EQ(n2.state, "idle");
  EXPECT_EQ(n2.flags, Names{"DRAIN"});
  EXPECT_EQ(n2.reason, "maint window");
  EXPECT_FALSE(n2.in_service());
}

// Slurm 23.02+ prints numbers as {"set","number"}, states as lists and exit codes as objects
// (hand-written in that layout; the fixtures above are the real 22.05 output).
TEST(SlurmState, NewerLayout) {
  const std::string jobs_text = R"J({"errors": [], "jobs": [
    {"job_id": 7, "job_state": ["FAILED"], "nodes": "a[1-2]", "required_nodes": "",
     "exit_code": {"status": ["SIGNALED"], "return_code": {"set": true, "number": 0},
                   "signal": {"id": {"set": true, "number": 9}, "name": "KILL"}},
     "start_time": {"set": true, "infinite": false, "number": 100},
     "end_time": {"set": true, "infinite": false, "number": 160},
     "restart_cnt": {"set": true, "number": 2}, "gres_detail": ["gpu:a100:1(IDX:3)", "gpu:a100:1(IDX:0)"]}]})J";
  auto jobs = parse_jobs_json(jobs_text);
  ASSERT_TRUE(jobs.is_ok()) << jobs.status().message();
  const SlurmJob& j = (*jobs)[0];
  EXPECT_EQ(j.state, "FAILED");
  EXPECT_EQ(j.exit_code, 137);
  EXPECT_EQ(j.start_time, 100);
  EXPECT_EQ(j.end_time, 160);
  EXPECT_EQ(j.restarts, 2u);
  EXPECT_EQ(j.gpu_indexes, (std::vector<Idx>{{3}, {0}}));
  const std::string nodes_text = R"({"nodes": [{"name": "a1", "state": ["IDLE", "DRAIN"], "cpus": 8,
    "real_memory": 1024, "gres": "gpu:a100:4", "features": ["x", "y"]}]})";
  auto nodes = parse_nodes_json(nodes_text);
  ASSERT_TRUE(nodes.is_ok()) << nodes.status().message();
  EXPECT_EQ((*nodes)[0].state, "idle");
  EXPECT_EQ((*nodes)[0].flags, Names{"DRAIN"});
  EXPECT_FALSE((*nodes)[0].in_service());
  EXPECT_EQ((*nodes)[0].features, (Names{"x", "y"}));
}

TEST(SlurmState, LoudOnBadInput) {
  auto not_json = parse_jobs_json("squeue: error: Invalid user");
  ASSERT_FALSE(not_json.is_ok());
  EXPECT_NE(not_json.status().message().find("not a JSON object"), std::string::npos);
  auto errors = parse_jobs_json(R"({"errors": [{"error": "boom"}], "jobs": []})");
  ASSERT_FALSE(errors.is_ok());
  EXPECT_NE(errors.status().message().find("boom"), std::string::npos);
  auto no_list = parse_nodes_json(R"({"errors": []})");
  ASSERT_FALSE(no_list.is_ok());
  EXPECT_NE(no_list.status().message().find("no 'nodes' list"), std::string::npos);
  auto bad_hosts = parse_jobs_json(R"({"jobs": [{"job_id": 3, "nodes": "n[1-"}]})");
  ASSERT_FALSE(bad_hosts.is_ok());
  EXPECT_NE(bad_hosts.status().message().find("job 3 field 'nodes'"), std::string::npos);
}

TEST(SlurmState, WaitStatus) {
  EXPECT_EQ(exit_code_from_wait_status(0), 0);
  EXPECT_EQ(exit_code_from_wait_status(768), 3);
  EXPECT_EQ(exit_code_from_wait_status(9), 137);
  EXPECT_EQ(exit_code_from_wait_status(15), 143);
}

}  // namespace
}  // namespace boreas::slurm
