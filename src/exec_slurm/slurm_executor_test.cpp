// The sbatch request the Slurm executor builds for a launch (no Slurm needed): the pin, the exit
// file beside the output, and no job as root unless the daemon allows it.

#include "exec_slurm/slurm_executor.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "server/testing/test_util.h"

namespace boreas::exec_slurm {
namespace {

SlurmExecutorOptions options(const std::string& jobs_dir, bool allow_root) {
  SlurmExecutorOptions o;
  o.jobs_dir = jobs_dir;
  o.allow_root_jobs = allow_root;
  o.nodes["spec-a"] = {"n1", "h100"};
  o.nodes["spec-b"] = {"n2", "h100"};
  return o;
}

server::LaunchRequest gang(const std::string& user) {
  server::LaunchRequest r;
  r.job = JobId(42);
  r.argv = {"sh", "-c", "exit 3"};
  r.user = user;
  r.placement = {{"spec-a", {0, 1}}, {"spec-b", {2, 3}}};
  return r;
}

TEST(SlurmExecutorRequest, PinnedHeldWithTheExitFileBesideTheOutput) {
  server::TempDir dir;
  const SlurmExecutor exec(options(dir.path(), true));
  auto s = exec.submit_request(gang(""));
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  EXPECT_EQ(s->node_list, (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ(s->gpus_per_node, 2u);
  EXPECT_EQ(s->gpu_type, "h100");
  EXPECT_TRUE(s->hold);
  EXPECT_EQ(s->comment, "boreas:42");
  EXPECT_EQ(s->output, dir.path() + "/42/stdout.log");
  EXPECT_EQ(s->exit_file, dir.path() + "/42/slurm-exit");
  EXPECT_TRUE(SlurmExecutor(options("", true)).submit_request(gang(""))->exit_file.empty());
}

// As root, a job without an account, or with root's, is refused unless --allow-root-jobs.
TEST(SlurmExecutorRequest, NoJobRunsAsRootUnlessAllowed) {
  if (geteuid() != 0) {
    GTEST_SKIP() << "as a user, jobs run as that user: nothing to refuse";
  }
  server::TempDir dir;
  const SlurmExecutor strict(options(dir.path(), false));
  for (const std::string& user : {std::string(), std::string("root")}) {
    auto s = strict.submit_request(gang(user));
    ASSERT_FALSE(s.is_ok()) << "user '" << user << "'";
    EXPECT_NE(s.status().message().find("job 42 would run as root"), std::string::npos) << s.status().message();
    EXPECT_NE(s.status().message().find("--allow-root-jobs"), std::string::npos);
  }
  auto allowed = SlurmExecutor(options(dir.path(), true)).submit_request(gang("root"));
  ASSERT_TRUE(allowed.is_ok());
  EXPECT_EQ(allowed->uid, 0u);
}

}  // namespace
}  // namespace boreas::exec_slurm
