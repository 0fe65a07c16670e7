#include "server/jobs/job_json.h"

#include <gtest/gtest.h>

namespace boreas::server {
namespace {

TEST(RestartPolicy, ParsesNeverAndOnFailureWithOrWithoutALimit) {
  auto never = parse_restart("never");
  ASSERT_TRUE(never.is_ok());
  EXPECT_FALSE(never->on_failure);
  auto plain = parse_restart("on-failure");
  ASSERT_TRUE(plain.is_ok());
  EXPECT_TRUE(plain->on_failure);
  EXPECT_EQ(plain->max_restarts, 3u);
  auto five = parse_restart("on-failure:5");
  ASSERT_TRUE(five.is_ok());
  EXPECT_EQ(five->max_restarts, 5u);
  EXPECT_EQ(restart_to_string(*five), "on-failure:5");
  EXPECT_EQ(restart_to_string(*never), "never");
}

TEST(RestartPolicy, RefusesAnythingElse) {
  for (const char* bad : {"always", "on-failure:", "on-failure:0", "on-failure:1001", "on-failure:x",
                          "on-failure5", "on-failure:-1", "Never", ""}) {
    EXPECT_FALSE(parse_restart(bad).is_ok()) << bad;
  }
}

TEST(RestartPolicy, IsASubmitFieldThatRoundTrips) {
  auto r = parse_submit(R"({"command":["true"],"restart":"on-failure:2"})");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->restart.max_restarts, 2u);
  auto again = parse_submit(submit_to_json(*r).dump());
  ASSERT_TRUE(again.is_ok()) << again.status().message();
  EXPECT_TRUE(again->restart.on_failure);
  EXPECT_EQ(again->restart.max_restarts, 2u);
  auto bad = parse_submit(R"({"command":["true"],"restart":"sometimes"})");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("$.restart"), std::string::npos) << bad.status().message();
  EXPECT_FALSE(parse_submit(R"({"command":["true"],"restart":3})").is_ok());
}

TEST(WhyJson, GivesThePolicysKindOnlyWhilePending) {
  LiveJob j;
  j.id = JobId(3);
  j.reason = "quota-exceeded: queue a * GPUs would reach 4 (has 2, guaranteed 2, ceiling 2)";
  j.reason_kind = "quota-exceeded";
  const nlohmann::json pending = why_json(j);
  EXPECT_EQ(pending["id"], 3);
  EXPECT_EQ(pending["state"], "pending");
  EXPECT_EQ(pending["reason"], j.reason);
  EXPECT_EQ(pending["kind"], "quota-exceeded");
  j.state = JobState::kCancelled;
  EXPECT_FALSE(why_json(j).contains("kind"));
}

TEST(Submit, TimeLimitIsSecondsOrADurationString) {
  auto secs = parse_submit(R"({"command":["true"],"time_limit_s":90})");
  ASSERT_TRUE(secs.is_ok()) << secs.status().message();
  EXPECT_EQ(secs->time_limit, Duration::seconds(90));
  auto day = parse_submit(R"({"command":["true"],"time_limit_s":"1-00:00:00"})");
  ASSERT_TRUE(day.is_ok()) << day.status().message();
  EXPECT_EQ(day->time_limit, Duration::hours(24));
  auto minutes = parse_submit(R"({"command":["true"],"time_limit_s":"30"})");  // sbatch: minutes
  ASSERT_TRUE(minutes.is_ok()) << minutes.status().message();
  EXPECT_EQ(minutes->time_limit, Duration::minutes(30));
  auto none = parse_submit(R"({"command":["true"],"time_limit_s":"UNLIMITED"})");
  ASSERT_TRUE(none.is_ok()) << none.status().message();
  EXPECT_EQ(none->time_limit, Duration::zero());
  EXPECT_EQ(submit_to_json(*day)["time_limit_s"], 86400);  // answers stay numbers
}

TEST(Submit, BadTimeLimitStringNamesTheField) {
  for (const char* body : {R"({"command":["true"],"time_limit_s":"soon"})",
                           R"({"command":["true"],"time_limit_s":"400-00:00:00"})"}) {
    auto r = parse_submit(body);
    ASSERT_FALSE(r.is_ok()) << body;
    EXPECT_NE(r.status().message().find("$.time_limit_s"), std::string::npos) << r.status().message();
  }
}

TEST(Submit, ReservedVariablesAreRefusedByName) {
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                           "HIP_VISIBLE_DEVICES", "BOREAS_JOB_ID"}) {
    auto r = parse_submit(std::string(R"({"command":["true"],"env":{")") + name + R"(":"0,1,2,3"}})");
    ASSERT_FALSE(r.is_ok()) << name;
    EXPECT_NE(r.status().message().find(std::string("$.env.") + name), std::string::npos) << r.status().message();
  }
  EXPECT_TRUE(parse_submit(R"({"command":["true"],"env":{"CUDA_HOME":"/opt/cuda"}})").is_ok());
}

TEST(Submit, RunAsComesFromTheDaemonNotTheClient) {
  const std::string body = R"({"command":["true"],"run_as":"root"})";
  auto client = parse_submit(body);
  ASSERT_FALSE(client.is_ok());
  EXPECT_NE(client.status().message().find("$.run_as"), std::string::npos);
  auto stored = parse_submit(body, SpecOrigin::kStore);
  ASSERT_TRUE(stored.is_ok());
  EXPECT_EQ(stored->run_as, "root");
  EXPECT_EQ(submit_to_json(*stored)["run_as"], "root");  // and it is stored again as it was
}

TEST(JobJson, EnvIsLeftOutUnlessShown) {
  LiveJob j;
  j.request.command = {"true"};
  j.request.env = {{"TOKEN", "secret"}};
  EXPECT_EQ(job_to_json(j, {}, true)["request"]["env"]["TOKEN"], "secret");
  EXPECT_FALSE(job_to_json(j, {}, false)["request"].contains("env"));
}

}  // namespace
}  // namespace boreas::server
