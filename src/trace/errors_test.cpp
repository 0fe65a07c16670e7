// Malformed inputs across formats: each must fail with a located, specific message, and with
// --on-error=skip be counted by reason instead.
#include <gtest/gtest.h>

#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <string>

#include "trace/trace.h"

namespace boreas::trace {
namespace {

struct BadInput {
  const char* name;    // file name: drives format detection
  const char* format;  // "auto" or a forced format
  const char* text;
  const char* message;  // the exact expected message
};

constexpr const char* kPhilly = "timestamp,duration,num_gpus,gpu_time,cluster\n";
constexpr const char* kHelios = "u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status\n";
constexpr const char* kOpenb =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
    "scheduled_time\n";
constexpr const char* kSkipHint = "; fix the line or pass --on-error=skip to skip bad lines";

std::string with(const char* header, const char* rows) { return std::string(header) + rows; }

const BadInput kCases[] = {
    {"p.csv", "auto", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09,1,1,1,vc\n",
     "p.csv:2: field 'timestamp': expected a date-time like 2017-10-09 07:01:55, got '2017-10-09'"},
    {"p.csv", "auto", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,-3,1,1,vc\n",
     "p.csv:2: field 'duration': expected a non-negative number of seconds, got '-3'"},
    {"p.csv", "auto", "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,1,x,1,vc\n",
     "p.csv:2: field 'num_gpus': expected an integer from 0 to 1048576, got 'x'"},
    {"p.csv", "auto", "timestamp,duration,num_gpus,gpu_time,cluster\n\n2017-10-09 07:01:55,1,1\n",
     "p.csv:3: expected 5 fields like the header, got '2017-10-09 07:01:55,1,1'"},
    {"p.csv", "philly", "timestamp,duration,gpus\n", "p.csv:1: header: missing column 'num_gpus'; check that "
                                                     "the file is in the format it was read as"},
    {"h.csv", "auto", "u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status\n0,1,1,1,1,-5,1,0,Pass\n",
     "h.csv:2: field 'interval': expected a non-negative number of seconds, got '-5'"},
    {"h.csv", "auto", "u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status\n0,1,1,1,1,0,1e999,0,Pass\n",
     "h.csv:2: field 'run_time': expected a non-negative number of seconds, got '1e999'"},
    {"h.csv", "auto", "u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status\n0,1,1.5,1,1,0,1,0,Pass\n",
     "h.csv:2: field 'gpu_num': expected an integer from 0 to 1048576, got '1.5'"},
    {"o.csv", "auto",
     "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
     "p,1000,10,1,1001,,LS,Running,0,10,0\n",
     "o.csv:2: field 'gpu_milli': expected an integer from 0 to 1000, got '1001'"},
    {"o.csv", "auto",
     "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
     "p,1000,10,1,0,,LS,Running,0,10,0\n",
     "o.csv:2: field 'gpu_milli': expected 1 to 1000 for a pod with num_gpu > 0, got '0'"},
    {"o.csv", "auto",
     "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
     "p,1000,10,1,100,,LS,Running,50,10,\n",
     "o.csv:2: field 'deletion_time': expected a time not before scheduled_time/creation_time, got '10'"},
    {"o.csv", "auto",
     "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
     "p,abc,10,1,100,,LS,Running,0,10,0\n",
     "o.csv:2: field 'cpu_milli': expected an integer from 0 to 1099511627776, got 'abc'"},
    {"c.csv", "auto", "job_id,submit_s,gpus,duration_s\n1,5,2,x\n",
     "c.csv:2: field 'duration_s': expected a number or a date-time, got 'x'"},
    {"c.csv", "auto", "job_id,submit_s,gpus,duration_s\n1,\"5,2,3\n",
     "c.csv:2: expected a closing '\"' in a quoted field, got '1,\"5,2,3'"},
    {"c.csv", "auto", "job_id,submit_s,gpus,duration_s\n1,5,-2,3\n",
     "c.csv:2: field 'gpus': expected an integer from 0 to 1048576, got '-2'"},
    {"c.csv", "auto", "a,b,c\n1,2,3\n",
     "c.csv:1: header: cannot tell which columns hold the submit time, the GPU count and the duration (or "
     "end time); name them with --map submit=COLUMN,duration=COLUMN,gpus=COLUMN (the header has: a, b, c)"},
    {"c.csv", "auto", "s,e,g\n10,5,1\n", nullptr},  // filled below: needs a --map
    {"n.jsonl", "auto", "{\"submit_us\":1,\"duration_us\":2,\"gpus\":-1}\n",
     "n.jsonl:1: field 'gpus': expected an integer from 0 to 4294967295, got '-1'"},
    {"n.jsonl", "auto", "{\"submit_us\":1,\"duration_us\":2}\n{\"submit_us\":1,\"duration_us\":2,}\n",
     "n.jsonl:2: expected a quoted key and ':', got '}'"},
    {"n.jsonl", "auto", "{\"submit_us\":1,\"duration_us\":2,\"kind\":\"serving\"}\n",
     "n.jsonl:1: field 'kind': expected training, inference or batch, got 'serving'"},
    {"n.jsonl", "auto", "{\"submit_us\":1,\"duraton_us\":2}\n",
     "n.jsonl:1: unknown field; expected one of the fields in docs/formats/trace.md, got 'duraton_us'"},
    {"n.jsonl", "auto", "{\"submit_us\":1}\n", "n.jsonl:1: field 'duration_us': expected in every job, got ''"},
    {"n.jsonl", "auto", "[1,2]\n", "n.jsonl:1: expected a JSON object starting with '{', got '[1,2]'"},
    {"n.csv", "native-csv", "id,name,submit_us,duration_us,colour\n", "n.csv:1: header: unknown column 'colour'; "
                                                                      "see docs/formats/trace.md"},
    {"n.csv", "auto", "id,name,queue,submit_us,duration_us,preemptible\n0,a,q,1,2,maybe\n",
     "n.csv:2: field 'preemptible': expected true or false, got 'maybe'"},
};

TEST(BadInput, EveryCaseReportsItsLocation) {
  int checked = 0;
  for (const auto& c : kCases) {
    if (c.message == nullptr) {
      continue;
    }
    ReadOptions o;
    o.format = c.format;
    auto t = read_trace_string(c.text, c.name, o);
    ASSERT_FALSE(t.is_ok()) << c.text;
    std::string expected = c.message;
    if (expected.find(": header:") == std::string::npos) {
      expected += kSkipHint;
    }
    EXPECT_EQ(t.status().message(), expected) << c.text;
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

TEST(BadInput, EndBeforeStartIsRejected) {
  ReadOptions o;
  o.column_map = "submit=s,end=e,gpus=g";
  auto t = read_trace_string("s,e,g\n10,5,1\n", "c.csv", o);
  ASSERT_FALSE(t.is_ok());
  EXPECT_EQ(t.status().message(), std::string("c.csv:2: field 'e': expected a non-negative duration, got '5'") +
                                      kSkipHint);
}

TEST(BadInput, BadMapAndFormatAreReported) {
  ReadOptions o;
  o.column_map = "submit=s,gpus=g,wallclock=e";
  auto t = read_trace_string("s,e,g\n10,5,1\n", "c.csv", o);
  ASSERT_FALSE(t.is_ok());
  EXPECT_EQ(t.status().message().substr(0, 34), "--map: unknown field 'wallclock'; ");
  o.column_map = "submit=s,gpus=g,duration=missing";
  t = read_trace_string("s,e,g\n10,5,1\n", "c.csv", o);
  ASSERT_FALSE(t.is_ok());
  EXPECT_EQ(t.status().message(),
            "c.csv:1: header: no column 'missing' for --map field 'duration'; the header has: s, e, g");
  ReadOptions f;
  f.format = "parquet";
  t = read_trace_string("x\n", "c.csv", f);
  ASSERT_FALSE(t.is_ok());
  EXPECT_EQ(t.status().message().substr(0, 34), "--format: unknown format 'parquet'");
}

TEST(BadInput, EmptyAndMissingFiles) {
  auto t = read_trace_string("", "e.csv", {});
  ASSERT_FALSE(t.is_ok());
  EXPECT_EQ(t.status().message(), "e.csv:1: the file is empty; expected a header line or a first job");
  t = read_trace_file("/nonexistent/x.csv", {});
  ASSERT_FALSE(t.is_ok());
  EXPECT_EQ(t.status().code(), ErrorCode::kIo);
}

// A .gz cut short (a partial download) must fail, never read as a shorter trace.
TEST(BadInput, TruncatedGzipFails) {
  std::string text = kPhilly;
  for (int i = 0; i < 2000; ++i) {
    text += "2017-10-09 07:01:55,66.0,1,66.0,vc" + std::to_string(i) + "\n";
  }
  const auto dir = std::filesystem::temp_directory_path() / ("boreas-gz-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string whole = (dir / "whole.csv.gz").string();
  gzFile gz = gzopen(whole.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  gzclose(gz);
  auto ok = read_trace_file(whole, {});
  ASSERT_TRUE(ok.is_ok()) << ok.status().message();
  EXPECT_EQ(ok->jobs.size(), 2000u);
  const std::string cut = (dir / "cut.csv.gz").string();
  std::filesystem::copy_file(whole, cut);
  std::filesystem::resize_file(cut, std::filesystem::file_size(whole) / 2);
  auto t = read_trace_file(cut, {});
  ASSERT_FALSE(t.is_ok());
  EXPECT_NE(t.status().message().find("cut.csv.gz: the gzip stream ends early"), std::string::npos)
      << t.status().message();
  std::filesystem::remove_all(dir);
}

TEST(SkipBadLines, CountsByReasonWithFirstLocation) {
  ReadOptions o;
  o.on_error = OnError::kSkip;
  ReadReport report;
  auto t = read_trace_string(with(kPhilly,
                                  "2017-10-09 07:01:55,1,1,1,a\n"
                                  "bad,1,1,1,a\n"
                                  "2017-10-09 07:01:55,1,x,1,a\n"
                                  "2017-10-09 07:01:55,1,y,1,a\n"),
                             "p.csv", o, &report);
  ASSERT_TRUE(t.is_ok());
  EXPECT_EQ(t->jobs.size(), 1u);
  EXPECT_EQ(report.lines_read, 4u);
  EXPECT_EQ(report.skipped, 3u);
  const std::string gpus = "field 'num_gpus': expected an integer from 0 to 1048576";
  EXPECT_EQ(report.skipped_by_reason[gpus], 2u);
  EXPECT_EQ(report.first_location_by_reason[gpus], "p.csv:4");
  EXPECT_EQ(report.skipped_by_reason.size(), 2u);
}

TEST(SkipBadLines, HeaderErrorsStillFail) {
  ReadOptions o;
  o.on_error = OnError::kSkip;
  EXPECT_FALSE(read_trace_string(with(kHelios, "").substr(0, 10) + "\n1\n", "h.csv", o).is_ok());
  EXPECT_TRUE(read_trace_string(with(kOpenb, ""), "o.csv", o).is_ok());
}

}  // namespace
}  // namespace boreas::trace
