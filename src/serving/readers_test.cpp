// The request trace readers on the bundled traces, against the figures their papers publish, and
// on malformed input (every error names file:line).
#include <gtest/gtest.h>

#include <string>

#include "serving/dlrm_instances.h"
#include "serving/request_trace.h"

namespace boreas::serving {
namespace {

const std::string kTraces = std::string(BOREAS_SOURCE_DIR) + "/data/traces/";

RequestTrace load(const std::string& rel) {
  auto t = read_request_trace(kTraces + rel);
  EXPECT_TRUE(t.is_ok()) << (t.is_ok() ? "" : t.status().message());
  return t.is_ok() ? std::move(*t) : RequestTrace{};
}

// Mooncake FAST'25, Table 2 (conversation): 12,031 requests, avg input 12,035, avg output 343.
TEST(ReadersTest, MooncakeMatchesTable2) {
  const RequestTrace t = load("mooncake-fast25/conversation_trace.jsonl.gz");
  const TraceStats s = trace_stats(t);
  EXPECT_EQ(s.requests, 12031u);
  EXPECT_NEAR(s.mean_input, 12035, 1);
  EXPECT_NEAR(s.mean_output, 343, 1);
  EXPECT_EQ(t.block_tokens, 512);
  EXPECT_EQ(t.blocks.size(), 288500u);  // every request: ceil(input / 512) hashes
  EXPECT_NEAR(s.duration_s, 3536.999, 1e-3);
}

// Splitwise (ISCA'24) medians: code 1,500 prompt / 13 output, conversation 1,020 / 129, within 3%.
TEST(ReadersTest, AzureMatchesSplitwiseMedians) {
  const TraceStats code = trace_stats(load("azure-llm-inference-2023/AzureLLMInferenceTrace_code.csv.gz"));
  EXPECT_EQ(code.requests, 8819u);
  EXPECT_NEAR(code.median_input, 1500, 0.03 * 1500);
  EXPECT_NEAR(code.median_output, 13, 0.03 * 13);
  const TraceStats conv = trace_stats(load("azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv.gz"));
  EXPECT_EQ(conv.requests, 19366u);
  EXPECT_NEAR(conv.median_input, 1020, 0.03 * 1020);
  EXPECT_NEAR(conv.median_output, 129, 0.03 * 129);
  EXPECT_GT(conv.duration_s, 57 * 60);  // 18:15:47 -> 19:14:08
  EXPECT_LT(conv.duration_s, 59 * 60);
}

TEST(ReadersTest, DlrmInstancesMatchTheReadme) {
  auto d = read_dlrm_instances(kTraces + "alibaba-dlrm-serving-2025/disaggregated_DLRM_trace.csv.gz");
  ASSERT_TRUE(d.is_ok()) << d.status().message();
  size_t hn = 0, before = 0, after = 0;
  for (const auto& i : d->instances) {
    hn += i.gpu_node ? 1 : 0;
    before += i.created_s < 0 ? 1 : 0;
    after += i.deleted_s < 0 ? 1 : 0;
    EXPECT_EQ(i.gpus, i.gpu_node ? 1.0 : 0.0);
  }
  EXPECT_EQ(d->instances.size(), 23871u);
  EXPECT_EQ(hn, 7386u);
  EXPECT_EQ(d->apps.size(), 156u);
  EXPECT_EQ(before, 7280u);
  EXPECT_EQ(after, 8878u);
}

TEST(ReadersTest, AzureTimesAreRelativeAndFractional) {
  const std::string csv =
      "TIMESTAMP,ContextTokens,GeneratedTokens\n"
      "2023-11-16 23:59:59.5,10,2\n"
      "2023-11-17 00:00:01.25,20,3\n";
  auto t = parse_azure_llm_csv(csv, "a.csv");
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  ASSERT_EQ(t->requests.size(), 2u);
  EXPECT_EQ(t->requests[0].arrival_us, 0);
  EXPECT_EQ(t->requests[1].arrival_us, 1750000);  // across midnight
  EXPECT_EQ(t->requests[1].input_tokens, 20);
  EXPECT_EQ(t->requests[1].output_tokens, 3);
}

void expect_error(const Result<RequestTrace>& r, const std::string& where, const std::string& what) {
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find(where), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find(what), std::string::npos) << r.status().message();
}

TEST(ReadersTest, MalformedAzureRowsNameTheLine) {
  const std::string head = "TIMESTAMP,ContextTokens,GeneratedTokens\n";
  expect_error(parse_azure_llm_csv(head + "2023-11-16 18:00:00,5\n", "a.csv"), "a.csv:2:", "expected 3 fields");
  expect_error(parse_azure_llm_csv(head + "2023-11-16 18:00:00,5,0\n", "a.csv"), "a.csv:2:", "GeneratedTokens '0'");
  expect_error(parse_azure_llm_csv(head + "yesterday,5,1\n", "a.csv"), "a.csv:2:", "not a date");
  expect_error(parse_azure_llm_csv(head + "2023-11-16 18:00:01,5,1\n2023-11-16 18:00:00,5,1\n", "a.csv"), "a.csv:3:",
               "earlier");
  expect_error(parse_azure_llm_csv(head, "a.csv"), "a.csv:1:", "no requests");
  expect_error(parse_azure_llm_csv("time,in,out\n", "a.csv"), "a.csv:1:", "header");
}

TEST(ReadersTest, MalformedMooncakeLinesNameTheLine) {
  const std::string ok = R"({"timestamp": 0, "input_length": 600, "output_length": 5, "hash_ids": [1, 2]})";
  auto t = parse_mooncake_jsonl(ok + "\n", "m.jsonl");
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(t->requests[0].block_count, 2u);
  expect_error(parse_mooncake_jsonl(ok + "\n{\"timestamp\": 1}\n", "m.jsonl"), "m.jsonl:2:", "'input_length' is missing");
  expect_error(parse_mooncake_jsonl("[1]\n", "m.jsonl"), "m.jsonl:1:", "not a JSON object");
  expect_error(
      parse_mooncake_jsonl(R"({"timestamp": 0, "input_length": 10, "output_length": 5, "hash_ids": [1, 2]})", "m.jsonl"),
      "m.jsonl:1:", "2 hash_ids for 10 input tokens");
  expect_error(parse_mooncake_jsonl(
                   R"({"timestamp": 0, "input_length": "10", "output_length": 5})", "m.jsonl"),
               "m.jsonl:1:", "expected an integer");
}

TEST(ReadersTest, TheDlrmTraceIsRefusedAsARequestTrace) {
  expect_error(parse_request_trace("instance_sn,role\n", "d.csv"), "d.csv:1:", "not requests");
  expect_error(parse_request_trace("hello\n", "x.txt"), "x.txt:1:", "unknown request trace format");
}

}  // namespace
}  // namespace boreas::serving
