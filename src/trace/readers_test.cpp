// Each reader on a small hand-checked fixture, and the bundled traces with their documented counts.
#include <gtest/gtest.h>

#include <string>

#include "trace/trace.h"

namespace boreas::trace {
namespace {

const std::string kFixtures = std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/traces/";
const std::string kData = std::string(BOREAS_SOURCE_DIR) + "/data/traces/";

Trace read_ok(const std::string& path, ReadOptions options = {}) {
  auto trace = read_trace_file(path, options);
  EXPECT_TRUE(trace.is_ok()) << (trace.is_ok() ? "" : trace.status().message());
  return trace.is_ok() ? std::move(*trace) : Trace{};
}

std::string_view text(const Trace& t, Symbol s) { return t.symbols.view(s); }

TEST(PhillyReader, SortsByTimestampAndKeepsSourceOrderOnTies) {
  const Trace t = read_ok(kFixtures + "philly_small.csv");
  EXPECT_EQ(t.format, "philly");
  ASSERT_EQ(t.jobs.size(), 4u);
  EXPECT_EQ(t.jobs[0].submit.us(), 0);
  EXPECT_EQ(t.jobs[0].duration.us(), 2'951'500'000);
  EXPECT_EQ(t.jobs[0].gpus, 8u);
  EXPECT_EQ(text(t, t.jobs[0].queue), "6214e9");
  EXPECT_EQ(t.jobs[1].submit.us(), 2932'000'000);
  EXPECT_EQ(text(t, t.jobs[1].queue), "11cb48");
  EXPECT_EQ(t.jobs[2].submit.us(), 2932'000'000);
  EXPECT_EQ(t.jobs[2].gpus, 2u);
  EXPECT_EQ(t.jobs[3].submit.us(), 86400'000'000);
  EXPECT_EQ(t.jobs[3].gpus, 128u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(t.jobs[i].id, JobId(i));
  }
}

TEST(HeliosReader, ArrivalIsTheRunningSumOfIntervals) {
  const Trace t = read_ok(kFixtures + "helios_small.csv");
  EXPECT_EQ(t.format, "helios");
  ASSERT_EQ(t.jobs.size(), 4u);
  const int64_t submits[] = {0, 94, 94, 100};
  const uint32_t gpus[] = {1, 0, 16, 8};
  const int64_t durations[] = {84, 87, 3600, 5};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(t.jobs[i].submit.us(), submits[i] * 1'000'000) << i;
    EXPECT_EQ(t.jobs[i].gpus, gpus[i]) << i;
    EXPECT_EQ(t.jobs[i].duration.us(), durations[i] * 1'000'000) << i;
  }
  EXPECT_EQ(t.jobs[1].kind, JobKind::kBatch);
  EXPECT_EQ(t.jobs[1].cpu_milli, 16000);
  EXPECT_EQ(t.jobs[0].kind, JobKind::kTraining);
  EXPECT_EQ(text(t, t.jobs[2].user), "7");
  EXPECT_EQ(text(t, t.jobs[3].name), "3");
}

TEST(AlibabaReader, MapsFractionalGpusTypesAndQos) {
  const Trace t = read_ok(kFixtures + "openb_small.csv");
  EXPECT_EQ(t.format, "alibaba");
  ASSERT_EQ(t.jobs.size(), 4u);
  const auto& p1 = t.jobs[0];
  EXPECT_EQ(text(t, p1.name), "openb-pod-0001");
  EXPECT_EQ(p1.submit.us(), 0);
  EXPECT_EQ(p1.duration.us(), 500'000'000);  // deletion - scheduled
  EXPECT_EQ(p1.gpu_milli, 460);
  EXPECT_EQ(text(t, p1.gpu_types), "V100M16|V100M32");
  EXPECT_EQ(text(t, p1.priority_class), "BE");
  EXPECT_TRUE(p1.preemptible);
  const auto& p2 = t.jobs[1];
  EXPECT_EQ(text(t, p2.name), "openb-pod-0002");
  EXPECT_EQ(p2.gpus, 0u);
  EXPECT_EQ(p2.kind, JobKind::kBatch);
  EXPECT_EQ(p2.duration.us(), 30'000'000);
  EXPECT_EQ(p2.memory_mib, 30720);
  const auto& p0 = t.jobs[2];
  EXPECT_EQ(p0.submit.us(), 50'000'000);
  EXPECT_EQ(p0.kind, JobKind::kInference);
  EXPECT_FALSE(p0.preemptible);
  EXPECT_EQ(p0.cpu_milli, 12000);
  const auto& p3 = t.jobs[3];
  EXPECT_EQ(p3.submit.us(), 250'000'000);
  EXPECT_EQ(p3.duration.us(), 600'000'000);  // pending: deletion - creation
  EXPECT_EQ(p3.gpus, 8u);
  EXPECT_FALSE(p3.preemptible);
}

TEST(AlibabaReader, PodsWithoutTimesArriveAtZeroAndNeverEnd) {
  const Trace t = read_ok(kFixtures + "openb_multigpu_small.csv");
  ASSERT_EQ(t.jobs.size(), 2u);
  EXPECT_EQ(t.jobs[1].submit.us(), 0);
  EXPECT_TRUE(t.jobs[1].duration.is_infinite());
  EXPECT_EQ(t.jobs[1].gpus, 2u);
}

TEST(GenericCsvReader, AutoMapsThePeerCaseHeader) {
  const Trace t = read_ok(kFixtures + "peer_small.csv");
  EXPECT_EQ(t.format, "csv");
  ASSERT_EQ(t.jobs.size(), 3u);
  EXPECT_EQ(t.jobs[1].submit.us(), 5'000'000);
  EXPECT_EQ(t.jobs[1].gpus, 2u);
  EXPECT_EQ(t.jobs[1].duration.us(), 14475'000'000);
  EXPECT_EQ(text(t, t.jobs[2].name), "2");
  EXPECT_EQ(t.jobs[2].gpus, 4u);
}

TEST(GenericCsvReader, ColumnMapWithUnitsAndDateTimes) {
  ReadOptions o;
  o.column_map = "submit=submission_time,duration=run:h,gpus=num_gpu,name=jid,queue=vc";
  const Trace t = read_ok(kFixtures + "mapped_small.csv", o);
  ASSERT_EQ(t.jobs.size(), 2u);
  EXPECT_EQ(text(t, t.jobs[0].name), "j2");
  EXPECT_EQ(t.jobs[0].duration.us(), 3600'000'000);
  EXPECT_EQ(text(t, t.jobs[0].queue), "dev");
  EXPECT_EQ(t.jobs[1].submit.us(), 30'000'000);
  EXPECT_EQ(t.jobs[1].duration.us(), 9000'000'000);
  EXPECT_EQ(t.jobs[1].gpus, 4u);
}

TEST(GenericCsvReader, EndColumnGivesDurationFromStart) {
  ReadOptions o;
  o.column_map = "submit=s:ms,start=b:ms,end=e:ms,gpus=g";
  auto t = read_trace_string("s,b,e,g\n1000,1500,4000,2\n", "x.csv", o);
  ASSERT_TRUE(t.is_ok()) << t.status().message();
  EXPECT_EQ(t->jobs[0].duration.us(), 2'500'000);
}

uint64_t count_if_cpu(const Trace& t) {
  uint64_t n = 0;
  for (const auto& j : t.jobs) {
    n += j.gpus == 0 ? 1 : 0;
  }
  return n;
}

TEST(BundledTraces, PhillyHasAllRows) {
  const Trace t = read_ok(kData + "philly-sia/philly.csv.gz");
  EXPECT_EQ(t.format, "philly");
  EXPECT_EQ(t.jobs.size(), 82247u);
  // 2017-09-04 10:30:41 → 2017-12-22 08:02:11 (SOURCE.md).
  EXPECT_EQ(t.jobs.back().submit.us(), int64_t{9'408'690} * 1'000'000);
}

TEST(BundledTraces, HeliosHasAllRowsAndCpuJobs) {
  const Trace t = read_ok(kData + "helios-dirlab-15k/helios_data_training.csv.gz");
  EXPECT_EQ(t.jobs.size(), 15000u);
  EXPECT_EQ(count_if_cpu(t), 4204u);
}

TEST(BundledTraces, OpenbDefaultAndVariants) {
  const Trace t = read_ok(kData + "alibaba-pai-gpu-2023/openb_pod_list_default.csv.gz");
  EXPECT_EQ(t.jobs.size(), 8152u);
  EXPECT_EQ(count_if_cpu(t), 1088u);
  EXPECT_EQ(read_ok(kData + "alibaba-pai-gpu-2023/variants/openb_pod_list_cpu300.csv.gz").jobs.size(), 10094u);
  EXPECT_EQ(read_ok(kData + "alibaba-pai-gpu-2023/variants/openb_pod_list_multigpu50.csv.gz").jobs.size(),
            9061u);
}

}  // namespace
}  // namespace boreas::trace
