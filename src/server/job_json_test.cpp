#include "server/job_json.h"

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

}  // namespace
}  // namespace boreas::server
