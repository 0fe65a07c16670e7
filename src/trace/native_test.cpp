// The native format: JSON line parsing, writing, and lossless round trips through both forms.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "trace/json_line.h"
#include "trace/native.h"
#include "trace/trace.h"

namespace boreas::trace {
namespace {

const std::string kFixtures = std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/traces/";

Trace sample_trace() {
  Trace t;
  JobSpec a;
  a.name = t.symbols.add("job \"a\",1");
  a.queue = t.symbols.intern("prod");
  a.user = t.symbols.intern("alice");
  a.priority_class = t.symbols.intern("high");
  a.job_class = t.symbols.intern("transformer-training");
  a.gpu_types = t.symbols.intern("A100|H100");
  a.kind = JobKind::kInference;
  a.preemptible = false;
  a.gpu_milli = 500;
  a.gpus = 16;
  a.gpus_per_node = 8;
  a.cpu_milli = 64000;
  a.memory_mib = 512000;
  a.duration = Duration::seconds(3600);
  a.time_limit = Duration::hours(2);
  a.checkpoint_interval = Duration::minutes(30);
  a.checkpoint_cost = Duration::seconds(20);
  JobSpec b;
  b.id = JobId(1);
  b.submit = Time::from_micros(1'500'001);
  b.duration = Duration::infinite();
  b.kind = JobKind::kBatch;
  a.id = JobId(0);
  t.jobs = {a, b};
  return t;
}

void expect_same(const Trace& x, const Trace& y) {
  ASSERT_EQ(x.jobs.size(), y.jobs.size());
  for (size_t i = 0; i < x.jobs.size(); ++i) {
    EXPECT_EQ(native_values(x.jobs[i], x.symbols), native_values(y.jobs[i], y.symbols)) << i;
  }
}

std::string temp_path(const std::string& name) {
  return std::string(BOREAS_BINARY_DIR) + "/trace_test_" + name;
}

TEST(JsonLine, ParsesFlatObjectsWithEscapes) {
  std::vector<JsonMember> m;
  std::deque<std::string> scratch;
  ASSERT_FALSE(parse_json_line(R"( {"a": "x\"y\u00e9", "b":-12 ,"c":true} )", m, scratch).has_value());
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].value, "x\"y\xc3\xa9");
  EXPECT_TRUE(m[0].is_string);
  EXPECT_EQ(m[1].value, "-12");
  EXPECT_FALSE(m[1].is_string);
  EXPECT_EQ(m[2].value, "true");
}

TEST(JsonLine, RejectsNestingAndTrailingText) {
  std::vector<JsonMember> m;
  std::deque<std::string> scratch;
  EXPECT_TRUE(parse_json_line(R"({"a":{"b":1}})", m, scratch).has_value());
  EXPECT_TRUE(parse_json_line(R"({"a":1} x)", m, scratch).has_value());
  EXPECT_TRUE(parse_json_line(R"({"a":"unterminated})", m, scratch).has_value());
}

// Writes `t` to a temporary `file_name`, reads it back and checks it is identical.
void expect_round_trip(const Trace& t, const std::string& file_name, const std::string& format) {
  const std::string path = temp_path(file_name);
  ASSERT_TRUE(write_trace_file(t, path).is_ok());
  auto back = read_trace_file(path, {});
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  EXPECT_EQ(back->format, format);
  expect_same(t, *back);
  std::remove(path.c_str());
}

TEST(NativeFormat, JsonlRoundTripIsLossless) { expect_round_trip(sample_trace(), "rt.jsonl", "native"); }

TEST(NativeFormat, CsvGzipRoundTripIsLossless) {
  expect_round_trip(sample_trace(), "rt.csv.gz", "native-csv");
}

TEST(NativeFormat, PhillyConvertedAndReadBackIsIdentical) {
  auto philly = read_trace_file(kFixtures + "philly_small.csv", {});
  ASSERT_TRUE(philly.is_ok());
  expect_round_trip(*philly, "philly.jsonl.gz", "native");
}

TEST(NativeFormat, WritesTheDocumentedLine) {
  Trace t;
  JobSpec j;
  j.id = JobId(0);
  j.gpus = 2;
  j.duration = Duration::seconds(1);
  t.jobs = {j};
  std::string line;
  append_jsonl(t, j, line);
  EXPECT_EQ(line,
            R"({"id":0,"name":"","queue":"","user":"","priority_class":"","job_class":"","gpu_types":"",)"
            R"("kind":"training","preemptible":true,"gpus":2,"gpu_milli":1000,"gpus_per_node":0,)"
            R"("cpu_milli":0,"memory_mib":0,"submit_us":0,"duration_us":1000000,"time_limit_us":0,)"
            R"("checkpoint_interval_us":0,"checkpoint_cost_us":0})"
            "\n");
}

TEST(NativeFormat, MissingFieldsTakeDefaults) {
  auto t = read_trace_string("{\"submit_us\":5,\"duration_us\":7,\"gpus\":3}\n", "x.jsonl", {});
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(t->jobs[0].gpus, 3u);
  EXPECT_EQ(t->jobs[0].gpu_milli, 1000);
  EXPECT_TRUE(t->jobs[0].preemptible);
}

}  // namespace
}  // namespace boreas::trace
