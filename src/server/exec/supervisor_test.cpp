#include "server/exec/supervisor.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>


#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

SpawnSpec sample() {
  SpawnSpec s;
  s.argv = {"/bin/sh", "-c", "echo 'a,b:c' \"$X\""};
  s.env = {"X=1", "EMPTY=", "NL=two\nlines"};
  s.cwd = "/tmp/a dir";
  s.stdout_path = "/d/stdout.log";
  s.stderr_path = "/d/stderr.log";
  s.output_path = "";
  s.error_path = "err-%j.txt";
  s.exit_path = "/d/exit";
  s.run_as = {true, 1001, 1002, {1002, 27, 100}, "ana", "/home/ana"};
  return s;
}

TEST(SupervisorPlan, RoundTripsEveryField) {
  const SpawnSpec in = sample();
  auto out = decode_plan(encode_plan(in));
  ASSERT_TRUE(out.is_ok()) << out.status().message();
  EXPECT_EQ(out->argv, in.argv);
  EXPECT_EQ(out->env, in.env);
  EXPECT_EQ(out->cwd, in.cwd);
  EXPECT_EQ(out->stdout_path, in.stdout_path);
  EXPECT_EQ(out->stderr_path, in.stderr_path);
  EXPECT_EQ(out->output_path, "");
  EXPECT_EQ(out->error_path, in.error_path);
  EXPECT_EQ(out->exit_path, in.exit_path);
  EXPECT_TRUE(out->run_as.switch_user);
  EXPECT_EQ(out->run_as.uid, 1001u);
  EXPECT_EQ(out->run_as.gid, 1002u);
  EXPECT_EQ(out->run_as.groups, (std::vector<gid_t>{1002, 27, 100}));
  EXPECT_EQ(out->run_as.name, "ana");
  EXPECT_EQ(out->run_as.home, "/home/ana");
}

TEST(SupervisorPlan, MalformedPlansAreRefusedNamingWhatIsWrong) {
  const std::string good = encode_plan(sample());
  auto wrong_version = decode_plan("boreas-supervise-plan 9\n" + good.substr(good.find('\n') + 1));
  ASSERT_FALSE(wrong_version.is_ok());
  EXPECT_NE(wrong_version.status().message().find("differ in version"), std::string::npos);

  auto truncated = decode_plan(good.substr(0, good.size() - 3));
  ASSERT_FALSE(truncated.is_ok());
  EXPECT_NE(truncated.status().message().find("field `ids`"), std::string::npos)
      << truncated.status().message();

  auto trailing = decode_plan(good + "x");
  ASSERT_FALSE(trailing.is_ok());
  EXPECT_NE(trailing.status().message().find("1 bytes after the last field"), std::string::npos);

  SpawnSpec no_command = sample();
  no_command.argv.clear();
  EXPECT_FALSE(decode_plan(encode_plan(no_command)).is_ok());

  std::string bad_uid = encode_plan(sample());
  bad_uid.replace(bad_uid.find("4:1001,"), 7, "4:10x1,");
  auto bad = decode_plan(bad_uid);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("`10x1` is not a uid"), std::string::npos) << bad.status().message();
}

// The supervisor runs as the daemon's account until its child drops to the job's: the job's
// environment must not reach it (LD_PRELOAD would run the job's code there), nor its argv (which
// every user can read).
TEST(Supervisor, KeepsTheJobsEnvironmentOutOfItsOwnAndOutOfArgv) {
  TempDir dir;
  SpawnSpec s;
  s.argv = {"sh", "-c", "echo \"$SECRET\""};
  s.env = {"PATH=/usr/bin:/bin", "SECRET=hunter2"};
  s.cwd = dir.path();
  s.stdout_path = dir.path() + "/out";
  s.stderr_path = dir.path() + "/err";
  s.exit_path = dir.path() + "/exit";
  auto sp = spawn_supervised(s);
  ASSERT_TRUE(sp.is_ok()) << sp.status().message();
  const std::string proc = "/proc/" + std::to_string(sp->pid);
  // posix_spawn returns once the exec has begun; its argv is in place a moment later.
  for (int i = 0; i < 200 && read_whole_file(proc + "/cmdline").empty(); ++i) {
    usleep(10000);
  }
  EXPECT_EQ(read_whole_file(proc + "/environ"), "");
  EXPECT_EQ(read_whole_file(proc + "/cmdline").find("hunter2"), std::string::npos);
  EXPECT_NE(read_whole_file(proc + "/cmdline").find(std::string(kSupervisorArg)), std::string::npos);
  const auto st = read_proc_stat(sp->pid);
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->session, sp->pid);  // its own session, from posix_spawn
  ASSERT_EQ(write(sp->go_fd, "g", 1), 1);
  close(sp->go_fd);
  int status = 0;
  ASSERT_EQ(waitpid(sp->pid, &status, 0), sp->pid);
  EXPECT_EQ(read_whole_file(dir.path() + "/out"), "hunter2\n");
  EXPECT_EQ(read_exit_status(s.exit_path), 0);
}

}  // namespace
}  // namespace boreas::server
