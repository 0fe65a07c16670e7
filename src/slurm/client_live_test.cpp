// The Slurm client against a real Slurm: the private cluster of tests/slurm/cluster.sh (4 nodes,
// n1,n2 under leaf1 and n3,n4 under leaf2, 8 fake h100 GPUs each). ctest starts it first and
// passes SLURM_CONF and the lab folder (LAB).

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "slurm/client.h"

namespace boreas::slurm {
namespace {

using Names = std::vector<std::string>;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

class SlurmLive : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(env("SLURM_CONF").empty()) << "run through ctest -L slurm (it starts the cluster)";
    out_ = env("LAB") + "/client-test";
    std::filesystem::create_directories(out_);
  }

  SubmitRequest request(std::vector<std::string> argv, uint32_t nodes, uint32_t gpus) const {
    SubmitRequest r;
    r.name = "client-test";
    r.argv = std::move(argv);
    r.nodes = nodes;
    r.gpus_per_node = gpus;
    r.gpu_type = "h100";
    r.cwd = out_;
    r.output = out_ + "/%j.out";
    return r;
  }

  // Polls squeue until `done` holds for the job (10 s at most).
  SlurmJob wait_job(uint64_t id, const std::function<bool(const SlurmJob&)>& done) const {
    SlurmJob last;
    for (int i = 0; i < 200; ++i) {
      auto j = client_.job(id);
      if (j.is_ok()) {
        last = *j;
        if (done(last)) {
          return last;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "job " << id << " stuck in " << last.state << " (" << last.reason << ")";
    return last;
  }

  std::string read(const std::string& path) const {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  Client client_{ClientOptions{}};
  std::string out_;
};

bool running(const SlurmJob& j) {
  return j.state == "RUNNING";
}

TEST_F(SlurmLive, NodesAndTopology) {
  auto nodes = client_.nodes();
  ASSERT_TRUE(nodes.is_ok()) << nodes.status().message();
  ASSERT_EQ(nodes->size(), 4u);
  for (const auto& n : *nodes) {
    EXPECT_EQ(gpu_count(n.gres), 8u) << n.name;
    EXPECT_EQ(n.cpus, 64u);
  }
  auto topo = client_.topology();
  ASSERT_TRUE(topo.is_ok()) << topo.status().message();
  ASSERT_GE(topo->size(), 2u);
  EXPECT_EQ((*topo)[0].nodes, (Names{"n1", "n2"}));
}

// Held submit -> pin to n3 -> release: runs there with 2 GPUs and Slurm's exit code comes back.
TEST_F(SlurmLive, HeldPinnedReleasedRunsWhereTold) {
  auto id = client_.submit(request({"sh", "-c", "echo gpus=$CUDA_VISIBLE_DEVICES; sleep 1; exit 3"}, 1, 2));
  ASSERT_TRUE(id.is_ok()) << id.status().message();
  auto held = client_.job(*id);
  ASSERT_TRUE(held.is_ok()) << held.status().message();
  EXPECT_TRUE(held->held()) << held->state << " " << held->reason;
  ASSERT_TRUE(client_.pin(*id, {"n3"}).is_ok());
  ASSERT_TRUE(client_.release(*id).is_ok());
  const SlurmJob run = wait_job(*id, running);
  EXPECT_EQ(run.nodes, Names{"n3"});
  ASSERT_EQ(run.gpu_indexes.size(), 1u);
  EXPECT_EQ(run.gpu_indexes[0].size(), 2u);
  const SlurmJob done = wait_job(*id, [](const SlurmJob& j) { return j.finished(); });
  EXPECT_EQ(done.state, "FAILED");
  EXPECT_EQ(done.exit_code, 3);
  EXPECT_NE(read(out_ + "/" + std::to_string(*id) + ".out").find("gpus=0,1"), std::string::npos);
}

TEST_F(SlurmLive, TwoNodeGangStartsAsOneJob) {
  auto id = client_.submit(request({"sleep", "30"}, 2, 4));
  ASSERT_TRUE(id.is_ok()) << id.status().message();
  ASSERT_TRUE(client_.pin(*id, {"n1", "n4"}).is_ok());
  ASSERT_TRUE(client_.release(*id).is_ok());
  const SlurmJob run = wait_job(*id, running);
  EXPECT_EQ(run.nodes, (Names{"n1", "n4"}));
  EXPECT_EQ(run.gpu_indexes.size(), 2u);
  ASSERT_TRUE(client_.cancel(*id).is_ok());
  EXPECT_EQ(wait_job(*id, [](const SlurmJob& j) { return j.finished(); }).state, "CANCELLED");
}

// Checkpoint signal reaches the batch script; requeue-held, re-pin and release resume it elsewhere.
TEST_F(SlurmLive, SignalRequeueAndReplace) {
  const std::string mark = out_ + "/usr1-mark";
  std::filesystem::remove(mark);
  auto id = client_.submit(request(
      {"bash", "-c", "trap 'echo got >> " + mark + "' USR1; for i in $(seq 300); do sleep 0.1; done"}, 1, 1));
  ASSERT_TRUE(id.is_ok()) << id.status().message();
  ASSERT_TRUE(client_.pin(*id, {"n2"}).is_ok());
  ASSERT_TRUE(client_.release(*id).is_ok());
  EXPECT_EQ(wait_job(*id, running).nodes, Names{"n2"});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the trap is set
  ASSERT_TRUE(client_.signal(*id, "USR1", true).is_ok());
  for (int i = 0; i < 100 && !std::filesystem::exists(mark); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(std::filesystem::exists(mark)) << "USR1 did not reach the batch script";
  ASSERT_TRUE(client_.requeue(*id, true).is_ok());
  wait_job(*id, [](const SlurmJob& j) { return j.state == "PENDING" && j.held(); });
  ASSERT_TRUE(client_.pin(*id, {"n4"}).is_ok());
  ASSERT_TRUE(client_.release(*id).is_ok());
  (void)client_.start_now(*id);  // skips the requeue delay; refused (harmless) if already eligible
  const SlurmJob again = wait_job(*id, running);
  EXPECT_EQ(again.nodes, Names{"n4"});
  EXPECT_EQ(again.restarts, 1u);
  ASSERT_TRUE(client_.cancel(*id).is_ok());
}

TEST_F(SlurmLive, DrainAndResume) {
  ASSERT_TRUE(client_.drain("n4", "client test").is_ok());
  auto find = [this](const std::string& name) {
    auto nodes = client_.nodes();
    for (const auto& n : nodes.is_ok() ? *nodes : std::vector<SlurmNode>{}) {
      if (n.name == name) {
        return n;
      }
    }
    return SlurmNode{};
  };
  const SlurmNode drained = find("n4");
  EXPECT_FALSE(drained.in_service());
  EXPECT_EQ(drained.reason, "client test");
  ASSERT_TRUE(client_.resume("n4").is_ok());
  bool back = false;
  for (int i = 0; i < 100 && !back; ++i) {
    back = find("n4").in_service();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(back) << "n4 not back in service 5 s after resume";
}

TEST_F(SlurmLive, ErrorsCarrySlurmsMessage) {
  const Status s = client_.release(999999);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("'scontrol release 999999' failed"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("Invalid job id"), std::string::npos) << s.message();
  SubmitRequest r = request({"true"}, 1, 1);
  r.node_list = {"n9"};  // the cluster has n1..n4
  auto bad = client_.submit(r);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("'sbatch --parsable"), std::string::npos);
  EXPECT_NE(bad.status().message().find("Invalid node name specified"), std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace boreas::slurm
