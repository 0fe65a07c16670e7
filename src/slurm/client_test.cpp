#include "slurm/client.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

namespace boreas::slurm {
namespace {

bool has(const std::vector<std::string>& args, const std::string& a) {
  return std::find(args.begin(), args.end(), a) != args.end();
}

TEST(SlurmClient, SbatchArgsForAPinnedHeldGang) {
  SubmitRequest r;
  r.name = "boreas-7";
  r.comment = "boreas:7";
  r.argv = {"python", "train.py", "--lr", "it's"};
  r.nodes = 2;
  r.gpus_per_node = 4;
  r.gpu_type = "h100";
  r.node_list = {"n1", "n4"};
  r.time_limit_min = 90;
  r.uid = 1000;
  const auto a = sbatch_args(r);
  for (const char* want : {"--parsable", "--hold", "--nodes=2", "--gres=gpu:h100:4", "--nodelist=n1,n4",
                           "--comment=boreas:7", "--time=90", "--uid=1000"}) {
    EXPECT_TRUE(has(a, want)) << want;
  }
  EXPECT_EQ(a.back(), "--wrap='python' 'train.py' '--lr' 'it'\\''s'");
}

// The exit code is kept in a file after the command, and is the script's own exit code too.
TEST(SlurmClient, ExitFileAfterTheCommand) {
  SubmitRequest r;
  r.argv = {"sh", "-c", "exit 3"};
  r.exit_file = "/data/jobs/7/slurm-exit";
  EXPECT_EQ(sbatch_args(r).back(),
            "--wrap='sh' '-c' 'exit 3'; rc=$?; echo \"$rc\" > '/data/jobs/7/slurm-exit'; exit \"$rc\"");
}

TEST(SlurmClient, UntypedGresAndNoHold) {
  SubmitRequest r;
  r.argv = {"true"};
  r.gpus_per_node = 1;
  r.hold = false;
  const auto a = sbatch_args(r);
  EXPECT_TRUE(has(a, "--gres=gpu:1"));
  EXPECT_FALSE(has(a, "--hold"));
  EXPECT_FALSE(has(a, "--uid=0"));
}

// A missing slurm.conf fails at once with its name (the tools themselves retry for 60 s).
TEST(SlurmClient, MissingSlurmConfIsLoudAndFast) {
  const Client c({"/nonexistent/slurm.conf"});
  const auto t0 = std::chrono::steady_clock::now();
  const Status s = c.ping();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("slurm.conf '/nonexistent/slurm.conf' (--slurm-conf) is not a file"),
            std::string::npos)
      << s.message();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
  SubmitRequest r;
  r.argv = {"true"};
  EXPECT_FALSE(c.submit(r).is_ok());
}

}  // namespace
}  // namespace boreas::slurm
