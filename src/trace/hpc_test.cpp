// SWF and Slurm sacct readers on hand-made samples covering their odd cases.
#include <gtest/gtest.h>

#include "trace/slurm_fields.h"
#include "trace/trace.h"

namespace boreas::trace {
namespace {

const std::string kFixtures = std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/traces/";
constexpr int64_t kS = 1'000'000;

std::string_view text(const Trace& t, Symbol s) { return t.symbols.view(s); }

TEST(SlurmReader, ReadsTheHandMadeSample) {
  ReadReport report;
  auto r = read_trace_file(kFixtures + "slurm_sample.txt", {}, &report);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  const Trace& t = *r;
  EXPECT_EQ(t.format, "slurm");
  ASSERT_EQ(t.jobs.size(), 7u);
  EXPECT_EQ(report.excluded, 2u);
  EXPECT_EQ(report.excluded_by_reason["never started (state PENDING)"], 1u);
  EXPECT_EQ(report.excluded_by_reason["never started (state CANCELLED)"], 1u);
  const char* names[] = {"1001", "1002_4", "1003+0", "1003+1", "1004", "1006", "1007"};
  const int64_t submits[] = {0, 60, 300, 300, 360, 480, 600};
  const int64_t durations[] = {7200, 630, 1800, 1800, 45, 25 * 3600, 3602};
  const uint32_t gpus[] = {8, 1, 16, 0, 0, 4, 2};
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(text(t, t.jobs[i].name), names[i]);
    EXPECT_EQ(t.jobs[i].submit.us(), submits[i] * kS) << names[i];
    EXPECT_EQ(t.jobs[i].duration.us(), durations[i] * kS) << names[i];
    EXPECT_EQ(t.jobs[i].gpus, gpus[i]) << names[i];
  }
  EXPECT_EQ(text(t, t.jobs[0].gpu_types), "a100");
  EXPECT_EQ(t.jobs[0].time_limit.us(), 26 * 3600 * kS);
  EXPECT_EQ(t.jobs[0].memory_mib, 262144);
  EXPECT_EQ(t.jobs[0].cpu_milli, 16000);
  EXPECT_EQ(text(t, t.jobs[0].queue), "nlp");
  EXPECT_EQ(text(t, t.jobs[0].user), "alice");
  EXPECT_EQ(text(t, t.jobs[1].gpu_types), "v100");
  EXPECT_EQ(text(t, t.jobs[1].priority_class), "low");
  EXPECT_EQ(t.jobs[2].gpus_per_node, 8u);
  EXPECT_EQ(t.jobs[2].time_limit.us(), 0);  // UNLIMITED
  EXPECT_EQ(t.jobs[3].kind, JobKind::kBatch);
  EXPECT_EQ(t.jobs[3].memory_mib, 16384);
  EXPECT_EQ(text(t, t.jobs[4].queue), "cpu");  // no account: the partition
  EXPECT_EQ(t.jobs[4].memory_mib, 4000);
  EXPECT_EQ(t.jobs[4].time_limit.us(), 30 * 60 * kS);
  EXPECT_EQ(t.jobs[5].time_limit.us(), 48 * 3600 * kS);
  EXPECT_EQ(text(t, t.jobs[6].gpu_types), "");
}

TEST(SlurmReader, StepsAreExcludedAndBadTresIsLocated) {
  const std::string header =
      "JobID|JobName|User|Account|Partition|QOS|Submit|Start|End|Elapsed|Timelimit|State|ReqTRES|AllocTRES|NNodes\n";
  ReadReport report;
  auto t = read_trace_string(header +
                                 "7|a|u|acc|p|q|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:02|"
                                 "00:00:01|10|COMPLETED||cpu=1,gres/gpu=1|1\n"
                                 "7.batch|batch|||||2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:02|"
                                 "00:00:01||COMPLETED||cpu=1,gres/gpu=1|1\n",
                             "s.txt", {}, &report);
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(t->jobs.size(), 1u);
  EXPECT_EQ(report.excluded_by_reason["job step, not an allocation (export with --allocations)"], 1u);
  auto bad = read_trace_string(header +
                                   "7|a|u|acc|p|q|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:02|"
                                   "00:00:01|10|COMPLETED||cpu=1,gres/gpu=two|1\n",
                               "s.txt", {});
  ASSERT_FALSE(bad.is_ok());
  EXPECT_EQ(bad.status().message(),
            "s.txt:2: field 'AllocTRES' entry 'gres/gpu': expected an integer from 0 to 1048576, got 'two'; "
            "fix the line or pass --on-error=skip to skip bad lines");
}

// sacct writes TRES memory with a binary unit, with two decimals when not whole (core/size_units.h).
TEST(SlurmReader, TresMemoryTakesSlurmSizes) {
  SymbolTable symbols;
  for (const auto& [tres, mib] : std::vector<std::pair<std::string, int64_t>>{
           {"mem=187.50G", 192000}, {"mem=4000M", 4000}, {"mem=16g", 16384}, {"mem=2048", 2048}, {"mem=1536K", 2}}) {
    JobSpec job;
    EXPECT_FALSE(read_tres(tres, "ReqTRES", job, symbols).has_value()) << tres;
    EXPECT_EQ(job.memory_mib, mib) << tres;
  }
  JobSpec job;
  const auto bad = read_tres("cpu=2,mem=lots", "ReqTRES", job, symbols);
  ASSERT_TRUE(bad.has_value());
  EXPECT_NE(bad->message().find("field 'ReqTRES' entry 'mem'"), std::string::npos) << bad->message();
  EXPECT_NE(bad->message().find("'lots'"), std::string::npos) << bad->message();
  EXPECT_TRUE(read_tres("mem=-4G", "ReqTRES", job, symbols).has_value());
}

TEST(SwfReader, ReadsTheSampleAndExcludesUnknownRunTimes) {
  ReadReport report;
  auto r = read_trace_file(kFixtures + "sample.swf", {}, &report);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  const Trace& t = *r;
  EXPECT_EQ(t.format, "swf");
  ASSERT_EQ(t.jobs.size(), 3u);
  EXPECT_EQ(report.excluded_by_reason["run time unknown (-1)"], 1u);
  EXPECT_EQ(text(t, t.jobs[0].name), "1");
  EXPECT_EQ(t.jobs[0].gpus, 8u);
  EXPECT_EQ(t.jobs[0].time_limit.us(), 7200 * kS);
  EXPECT_EQ(text(t, t.jobs[0].user), "3");
  EXPECT_EQ(text(t, t.jobs[1].name), "4");
  EXPECT_EQ(t.jobs[1].submit.us(), 20 * kS);
  EXPECT_EQ(text(t, t.jobs[1].queue), "");
  EXPECT_EQ(text(t, t.jobs[2].name), "3");
  EXPECT_EQ(t.jobs[2].gpus, 2u);  // allocated -1: the requested count
  EXPECT_EQ(t.jobs[2].duration.us(), 120'500'000);
  EXPECT_EQ(t.jobs[2].time_limit.us(), 0);
}

TEST(SwfReader, ShortLineIsLocated) {
  auto t = read_trace_string("; c\n1 0 10\n", "w.swf", {});
  ASSERT_FALSE(t.is_ok());
  EXPECT_EQ(t.status().message(),
            "w.swf:2: expected 18 whitespace-separated SWF fields, got '1 0 10'; fix the line or pass "
            "--on-error=skip to skip bad lines");
}

}  // namespace
}  // namespace boreas::trace
