#include "server/telemetry/json_log.h"

#include <gtest/gtest.h>

namespace boreas::server {
namespace {

TEST(JsonLog, OneObjectPerLineWithTsLevelEventFirst) {
  // 2026-11-24T01:02:03.456789Z in microseconds since the epoch (20781 days after 1970-01-01).
  const int64_t us = (20781LL * 86400 + 1 * 3600 + 2 * 60 + 3) * 1'000'000 + 456'789;
  const std::string line = JsonLog::format(us, "info", "job.started", {{"job", 7}, {"node", "n1"}});
  EXPECT_EQ(line.rfind(R"({"ts":"2026-11-24T01:02:03.456Z","level":"info","event":"job.started",)", 0), 0u)
      << line;
  const auto parsed = nlohmann::json::parse(line);
  EXPECT_EQ(parsed["job"], 7);
  EXPECT_EQ(parsed["node"], "n1");
  EXPECT_EQ(line.find('\n'), std::string::npos);
}

TEST(JsonLog, FieldsCannotOverrideTheEnvelopeAndBadUtf8IsReplaced) {
  const std::string line = JsonLog::format(0, "warn", "request", {{"event", "forged"}, {"path", "/\xff"}});
  const auto parsed = nlohmann::json::parse(line);
  EXPECT_EQ(parsed["event"], "request");
  EXPECT_EQ(parsed["ts"], "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(parsed["path"], "/\xEF\xBF\xBD");
}

}  // namespace
}  // namespace boreas::server
