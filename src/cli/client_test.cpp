// The client's parsers and printers without a daemon: batch-script directives, submit bodies,
// squeue-like columns and state filters, terminal safety, YAML output, shell completion.
#include <gtest/gtest.h>

#include "cli/client.h"
#include "cli/completion.h"
#include "cli/job_table.h"
#include "cli/submit_options.h"

namespace boreas::cli {
namespace {

using nlohmann::json;

TEST(Directives, SbatchAndBoreasLinesBeforeTheFirstCommand) {
  const std::string script =
      "#!/bin/bash\n"
      "\n"
      "#SBATCH -J train --time=1-00:00:00\n"
      "# a comment\n"
      "#BOREAS -G a100:2\n"
      "#SBATCH --dependency afterok:4\n"
      "python train.py\n"
      "#SBATCH -A late\n";
  auto s = read_directives(script, "job.sh");
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  EXPECT_EQ(s->name, "train");
  EXPECT_EQ(s->time, "1-00:00:00");
  EXPECT_EQ(s->gpus, "a100:2");
  EXPECT_EQ(s->dependency, "afterok:4");
  EXPECT_EQ(s->queue, "");  // after the first command: not a directive
}

TEST(Directives, QuotedValuesKeepTheirSpaces) {
  auto s = read_directives("#SBATCH -J 'my job' --qos \"high\"\n", "job.sh");
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  EXPECT_EQ(s->name, "my job");
  EXPECT_EQ(s->qos, "high");
}

TEST(Directives, AnUnknownOptionNamesTheFileAndLine) {
  auto s = read_directives("#!/bin/sh\n#SBATCH -J ok\n#SBATCH --exclusive\n", "job.sh");
  ASSERT_FALSE(s.is_ok());
  EXPECT_EQ(s.status().message().rfind("job.sh:3: `#SBATCH --exclusive`: ", 0), 0u) << s.status().message();
  EXPECT_FALSE(read_directives("#SBATCH -J 'open\n", "job.sh").is_ok());
}

TEST(Directives, TheCommandLineWins) {
  SubmitArgs line;
  line.time = "10";
  SubmitArgs script;
  script.time = "5";
  script.name = "scripted";
  const SubmitArgs merged = merge(line, script);
  EXPECT_EQ(merged.time, "10");
  EXPECT_EQ(merged.name, "scripted");
}

TEST(SubmitBody, TimeIsMinutesAndGpusMayNameAType) {
  SubmitArgs s;
  s.command = {"true"};
  s.time = "30";
  s.gpus = "a100:2";
  auto body = submit_body(s, "/tmp");
  ASSERT_TRUE(body.is_ok()) << body.status().message();
  EXPECT_EQ((*body)["time_limit_s"], 1800);
  EXPECT_EQ((*body)["gpus"], 2);
  EXPECT_EQ((*body)["gpu_type"], "a100");
  EXPECT_EQ((*body)["queue"], "default");
  s.time = "UNLIMITED";
  EXPECT_EQ((*submit_body(s, "/tmp"))["time_limit_s"], 0);
}

TEST(SubmitBody, CpusAndMemoryAsSbatchTakesThem) {
  auto script = read_directives("#SBATCH -c 4\n#SBATCH --mem=8G\n", "job.sh");
  ASSERT_TRUE(script.is_ok()) << script.status().message();
  SubmitArgs line;
  line.command = {"true"};
  line.cpus = "0.5";  // the command line wins
  auto body = submit_body(merge(line, *script), "/");
  ASSERT_TRUE(body.is_ok()) << body.status().message();
  EXPECT_EQ((*body)["cpus"], 0.5);
  EXPECT_EQ((*body)["memory"], "8G");
  for (const char* bad : {"two", "0", "-1", "2x", ""}) {
    line.cpus = bad;
    auto refused = submit_body(line, "/");
    if (std::string(bad).empty()) {
      EXPECT_FALSE(refused->contains("cpus"));  // not given: the daemon's default share
      continue;
    }
    ASSERT_FALSE(refused.is_ok()) << bad;
    EXPECT_NE(refused.status().message().find("--cpus"), std::string::npos);
  }
}

TEST(SubmitBody, BadValuesNameTheOption) {
  SubmitArgs s;
  s.command = {"true"};
  s.time = "soon";
  EXPECT_EQ(submit_body(s, "/").status().message().rfind("--time: `soon`", 0), 0u);
  s.time.clear();
  for (const char* bad : {"two", ":2", "a100:", "-1", "2x"}) {
    s.gpus = bad;
    auto body = submit_body(s, "/");
    ASSERT_FALSE(body.is_ok()) << bad;
    EXPECT_NE(body.status().message().find("--gpus"), std::string::npos);
  }
}

json running_job() {
  return {{"id", 7},          {"owner", "alice"},    {"state", "running"}, {"reason", "running"},
          {"node", "n1"},     {"start_us", 1'000'000},
          {"request", {{"name", "train"}, {"queue", "default"}, {"gpus", 2}, {"command", {"python", "t.py"}},
                       {"time_limit_s", 0}}}};
}

TEST(JobTable, SqueueColumnsByDefault) {
  auto columns = job_columns("");
  ASSERT_TRUE(columns.is_ok());
  std::vector<std::string> headers;
  for (const JobColumn& c : *columns) {
    headers.push_back(c.header);
  }
  EXPECT_EQ(headers, (std::vector<std::string>{"JOBID", "NAME", "USER", "QUEUE", "STATE", "TIME", "GPUS",
                                               "NODELIST(REASON)"}));
  // Started at 1 s, now 3,725 s: 1 h 2 min 4 s.
  EXPECT_EQ(job_cells(running_job(), *columns, 3'725'000'000),
            (std::vector<std::string>{"7", "train", "alice", "default", "running", "1:02:04", "2", "n1"}));
}

TEST(JobTable, APendingJobShowsItsReasonInParentheses) {
  json job = running_job();
  job["state"] = "pending";
  job["reason"] = "Dependency";
  job.erase("start_us");
  EXPECT_EQ(job_cells(job, *job_columns("time,nodelist"), 99), (std::vector<std::string>{"0:00", "(Dependency)"}));
}

TEST(JobTable, NamedColumnsAnyCaseAndUnknownOnesRefused) {
  auto c = job_columns("ID,Command,time_limit");
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_EQ(job_cells(running_job(), *c, 0), (std::vector<std::string>{"7", "python t.py", "UNLIMITED"}));
  auto bad = job_columns("id,colour");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("unknown column `colour`"), std::string::npos);
  EXPECT_NE(bad.status().message().find("nodelist"), std::string::npos);  // lists the known ones
}

TEST(JobStates, ActiveByDefaultEverythingWithAllAndUnknownRefused) {
  EXPECT_EQ(*states_to_show("", false), (std::vector<std::string>{"pending", "running", "preempted"}));
  EXPECT_TRUE(states_to_show("", true)->empty());
  EXPECT_EQ(*states_to_show("Failed,cancelled", false), (std::vector<std::string>{"failed", "cancelled"}));
  auto bad = states_to_show("running,bogus", false);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("valid states: pending, running, preempted, completed, failed, cancelled"),
            std::string::npos);
}

TEST(TerminalSafe, ControlCharactersAreShownNotSent) {
  EXPECT_EQ(terminal_safe("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(terminal_safe("a\nb\rc\x7f"), "a\\x0ab\\x0dc\\x7f");
  EXPECT_EQ(terminal_safe("plain é"), "plain é");
  EXPECT_EQ(cell(json{{"name", "\x1b]0;pwned\x07"}}, "name"), "\\x1b]0;pwned\\x07");
}

TEST(Yaml, BlockStyleWithJsonQuotedScalars) {
  const json j = {{"jobs", {{{"id", 1}, {"name", "a: b"}}}}, {"empty", json::array()}};
  EXPECT_EQ(to_yaml(j), "\"empty\": []\n\"jobs\":\n  -\n    \"id\": 1\n    \"name\": \"a: b\"\n");
}

TEST(JobId, DigitsOnly) {
  EXPECT_EQ(*parse_job_id("42"), 42u);
  for (const char* bad : {"", "0", "abc", "4 2", "-1", "1234567890"}) {
    EXPECT_FALSE(parse_job_id(bad).is_ok()) << bad;
  }
}

TEST(Completion, BashOffersSubcommandsAndEachCommandsOptions) {
  CLI::App app{"test", "boreas"};
  auto* trace = app.add_subcommand("trace", "");
  trace->add_subcommand("stats", "");
  auto* submit = app.add_subcommand("submit", "");
  std::string time;
  submit->add_option("-t,--time", time, "");
  const std::string script = bash_completion(app);
  EXPECT_NE(script.find("    \"\") echo \"trace submit --help -h\" ;;"), std::string::npos) << script;
  EXPECT_NE(script.find("    \"trace\") echo \"stats --help -h\" ;;"), std::string::npos) << script;
  EXPECT_NE(script.find("    \"submit\") echo \"--help -h --time -t\" ;;"), std::string::npos) << script;
  EXPECT_NE(script.find("complete -o default -F _boreas_complete boreas"), std::string::npos);
  const std::string zsh = zsh_completion(app);
  const std::string loader = "autoload -U +X bashcompinit && bashcompinit\n";
  EXPECT_EQ(zsh.rfind("#compdef boreas\n", 0), 0u);  // installable as an autoloaded _boreas
  ASSERT_NE(zsh.find(loader), std::string::npos);
  EXPECT_EQ(zsh.substr(zsh.find(loader) + loader.size(), script.size()), script);  // zsh runs the bash script
}

}  // namespace
}  // namespace boreas::cli

namespace boreas::cli {
namespace {

TEST(Array, RangesListsAndAThrottle) {
  auto a = parse_array("0-3,7,9-10%2");
  ASSERT_TRUE(a.is_ok()) << a.status().message();
  EXPECT_EQ(a->tasks, (std::vector<uint32_t>{0, 1, 2, 3, 7, 9, 10}));
  EXPECT_EQ(a->at_once, 2u);
  EXPECT_EQ(parse_array("5")->tasks, std::vector<uint32_t>{5});
  EXPECT_EQ(parse_array("5")->at_once, 0u);
  for (const char* bad : {"", "a", "3-1", "0-9%0", "0-9%", "1,", ",1", "0-1000", "-1", "1-2-3", "0-9%x"}) {
    auto r = parse_array(bad);
    ASSERT_FALSE(r.is_ok()) << bad;
    EXPECT_NE(r.status().message().find("--array"), std::string::npos);
  }
}

TEST(Array, TaskBodiesAreNamedAndNumberedAndThrottledByDependency) {
  const nlohmann::json body = {{"command", {"true"}}, {"name", "sweep"}, {"dependency", "afterok:3"}};
  const auto first = array_task_body(body, 4, 0);
  EXPECT_EQ(first["name"], "sweep_4");
  EXPECT_EQ(first["env"]["SLURM_ARRAY_TASK_ID"], "4");
  EXPECT_EQ(first["env"]["BOREAS_ARRAY_TASK_ID"], "4");
  EXPECT_EQ(first["dependency"], "afterok:3");
  EXPECT_EQ(array_task_body(body, 5, 12)["dependency"], "afterok:3,afterany:12");
  EXPECT_EQ(array_task_body({{"command", {"true"}}}, 0, 12)["dependency"], "afterany:12");
}

}  // namespace
}  // namespace boreas::cli
