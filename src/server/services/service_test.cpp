// Services in the live daemon: the API body, the replicas' load format, the scaling decisions
// and the stored form. The daemon end to end is tests/server/live_services.sh.

#include <gtest/gtest.h>

#include "server/services/replica_load.h"
#include "server/services/service_config.h"
#include "server/services/service_records.h"
#include "server/services/service_scale.h"
#include "server/testing/test_util.h"

namespace boreas::server {
namespace {

constexpr const char* kReplica =
    R"("replica": {"command": ["python3", "serve.py"], "gpus": 1, "queue": "inference"})";

Result<ServiceConfig> parse(const std::string& rest) {
  return parse_service(std::string(R"({"name": "chat", )") + kReplica + rest + "}");
}

std::string error_of(const std::string& rest) {
  auto s = parse(rest);
  return s.is_ok() ? "accepted" : s.status().message();
}

TEST(ServiceConfig, DefaultsAreTheTwinsAutoscalerAndOneReplica) {
  auto s = parse("");
  ASSERT_TRUE(s.is_ok()) << s.status().message();
  EXPECT_EQ(s->name, "chat");
  EXPECT_EQ(s->min_replicas, 1);
  EXPECT_EQ(s->max_replicas, 1);
  EXPECT_EQ(s->target_inflight, 32);
  EXPECT_EQ(s->replica.gpus, 1u);
  EXPECT_EQ(s->replica.queue, "inference");
  auto bounded = parse(R"(, "min_replicas": 2, "max_replicas": 5, "scale_down_delay_s": 0)");
  ASSERT_TRUE(bounded.is_ok()) << bounded.status().message();
  EXPECT_EQ(bounded->min_replicas, 2);
  EXPECT_EQ(bounded->max_replicas, 5);
  EXPECT_EQ(bounded->scale_down_delay_s, 0);
}

TEST(ServiceConfig, BadInputNamesTheFieldAndTheFix) {
  EXPECT_EQ(error_of(R"(, "min_replicas": 3, "max_replicas": 2)"),
            "$.min_replicas: 3 is above max_replicas 2; give MIN..MAX with MIN <= MAX");
  EXPECT_NE(error_of(R"(, "max_replicas": 0)").find("$.max_replicas: expected a whole number from 1 to 64"),
            std::string::npos);
  EXPECT_NE(error_of(R"(, "interval_s": -1)").find("$.interval_s: expected a number of seconds"),
            std::string::npos);
  EXPECT_NE(error_of(R"(, "owner": "eve")").find("$.owner: set by the daemon"), std::string::npos);
  EXPECT_NE(error_of(R"(, "replicas": 2)").find("$.replicas: unknown field"), std::string::npos);
  auto zero = parse_service(R"({"name": "chat", "replica": {"command": ["x"], "gpus": 0}})");
  EXPECT_NE(zero.status().message().find("$.replica.gpus: a service's replicas need at least one GPU"),
            std::string::npos);
  auto reserved = parse_service(R"({"name": "chat", "replica": {"command": ["x"], "gpus": 1,
                                    "env": {"BOREAS_REPLICA_PORT": "80"}}})");
  EXPECT_NE(reserved.status().message().find(
                "$.replica: $.env.BOREAS_REPLICA_PORT: `BOREAS_REPLICA_PORT` is set by the daemon"),
            std::string::npos)
      << reserved.status().message();
  EXPECT_NE(parse_service(R"({"name": "Chat!", "replica": {"command": ["x"], "gpus": 1}})")
                .status()
                .message()
                .find("$.name: expected 1 to 63 lowercase letters"),
            std::string::npos);
  EXPECT_EQ(parse_service(R"({"replica": {"command": ["x"], "gpus": 1}})").status().message(),
            "$.name: missing");
  EXPECT_FALSE(parse_service("[1]").is_ok());
}

TEST(ServiceConfig, StoredFormReadsBackWithOwnerAndAccount) {
  auto s = parse(R"(, "min_replicas": 1, "max_replicas": 3, "target_inflight": 2.5)");
  ASSERT_TRUE(s.is_ok());
  s->owner = "alice";
  s->created_us = 42;
  s->replica.run_as = "alice";
  TempDir dir;
  auto store = Store::open(dir.path() + "/boreas.db");
  ASSERT_TRUE(store.is_ok());
  ASSERT_TRUE((*store)->write_sync({{insert_service_row(*s)}}).is_ok());
  auto loaded = load_services(**store);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message();
  ASSERT_EQ(loaded->size(), 1u);
  EXPECT_EQ(service_to_json(loaded->front()), service_to_json(*s));
  EXPECT_EQ(loaded->front().replica.run_as, "alice");
  ASSERT_TRUE((*store)->write_sync({{delete_service_row("chat")}}).is_ok());
  EXPECT_TRUE(load_services(**store)->empty());
}

TEST(ReplicaLoad, SumsInflightSamplesOrReadsVllm) {
  EXPECT_EQ(*parse_inflight("inflight_requests 3\n"), 3);
  EXPECT_EQ(*parse_inflight(
                "# HELP inflight_requests x\n# TYPE inflight_requests gauge\n"
                "inflight_requests{route=\"/a b}\"} 2\ninflight_requests{route=\"/c\"} 1.5 1700000000\n"),
            3.5);
  // vLLM: running + waiting, both model_name-labelled; ignored once inflight_requests is there.
  const std::string vllm =
      "vllm:num_requests_running{model_name=\"m\"} 4.0\nvllm:num_requests_waiting{model_name=\"m\"} 2.0\n";
  EXPECT_EQ(*parse_inflight(vllm), 6);
  EXPECT_EQ(*parse_inflight(vllm + "inflight_requests 1\n"), 1);
  EXPECT_EQ(*parse_inflight("inflight_requests_total 9\ninflight_requests 0\n"), 0);
}

TEST(ReplicaLoad, MissingOrMalformedIsAnError) {
  auto none = parse_inflight("requests_total 9\n");
  EXPECT_EQ(none.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(none.status().message().find("serve a line `inflight_requests N`"), std::string::npos);
  EXPECT_EQ(parse_inflight("x 1\ninflight_requests -1\n").status().message(),
            "line 2: inflight_requests has value `-1`; expected a non-negative number");
  EXPECT_FALSE(parse_inflight("inflight_requests three\n").is_ok());
}

// Up at once; down only after `desired` stayed lower for the whole delay (10 s here).
TEST(ServiceScale, UpAtOnceDownAfterTheDelay) {
  int64_t low_since = -1;
  EXPECT_EQ(next_replica_count(1, 3, 0, 10'000'000, low_since), 3);
  EXPECT_EQ(next_replica_count(3, 1, 1'000'000, 10'000'000, low_since), 3);  // waits from t=1 s
  EXPECT_EQ(low_since, 1'000'000);
  EXPECT_EQ(next_replica_count(3, 2, 10'999'999, 10'000'000, low_since), 3);
  EXPECT_EQ(next_replica_count(3, 2, 11'000'000, 10'000'000, low_since), 2);  // 10 s below: down
  EXPECT_EQ(low_since, -1);
  EXPECT_EQ(next_replica_count(2, 1, 12'000'000, 10'000'000, low_since), 2);
  EXPECT_EQ(next_replica_count(2, 2, 13'000'000, 10'000'000, low_since), 2);  // load back: the wait restarts
  EXPECT_EQ(low_since, -1);
  EXPECT_EQ(next_replica_count(2, 1, 14'000'000, 0, low_since), 1);  // no delay: at once
}

// The interval, doubled per failure in a row, capped at 5 minutes.
TEST(ServiceScale, BackOffDoublesPerFailureUpToFiveMinutes) {
  EXPECT_EQ(replica_backoff_us(0, 10), 0);
  EXPECT_EQ(replica_backoff_us(1, 10), 10'000'000);
  EXPECT_EQ(replica_backoff_us(3, 10), 40'000'000);
  EXPECT_EQ(replica_backoff_us(6, 10), 300'000'000);
  EXPECT_EQ(replica_backoff_us(1000, 0.5), 300'000'000);
}

TEST(ServiceScale, NewestCancelledDenseIndexesFreePorts) {
  EXPECT_EQ(newest_jobs({7, 12, 9}, 2), (std::vector<uint32_t>{12, 9}));
  EXPECT_EQ(newest_jobs({7}, 3), (std::vector<uint32_t>{7}));
  EXPECT_EQ(free_index({}), 0);
  EXPECT_EQ(free_index({0, 1, 3}), 2);
  EXPECT_EQ(pick_port({100, 101}, 100, 104, [](int p) { return p != 102; }), 103);
  EXPECT_EQ(pick_port({100}, 100, 100, [](int) { return true; }), 0);
}

}  // namespace
}  // namespace boreas::server
