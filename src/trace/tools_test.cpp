// Stats, filters, sampling and the synthetic generator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "trace/stats.h"
#include "trace/synth.h"
#include "trace/transform.h"

namespace boreas::trace {
namespace {

const std::string kFixtures = std::string(BOREAS_SOURCE_DIR) + "/tests/fixtures/traces/";

Trace philly_small() {
  auto t = read_trace_file(kFixtures + "philly_small.csv", {});
  EXPECT_TRUE(t.is_ok());
  return std::move(*t);
}

TEST(Stats, PhillyFixtureByHand) {
  const TraceStats s = compute_stats(philly_small());
  EXPECT_EQ(s.jobs, 4u);
  EXPECT_EQ(s.span.us(), 86400 * int64_t{1'000'000});
  EXPECT_DOUBLE_EQ(s.duration_s.at("p50"), 38.0);  // (10 + 66) / 2
  EXPECT_DOUBLE_EQ(s.duration_s.at("max"), 2951.5);
  EXPECT_DOUBLE_EQ(s.gpu_hours, 23826.0 / 3600);
  EXPECT_EQ(s.gpu_histogram.at(8), 1u);
  EXPECT_EQ(s.queues.at("6214e9").jobs, 2u);
  EXPECT_DOUBLE_EQ(*offered_load(s, 10), 23826.0 / (10 * 86400.0));
  EXPECT_FALSE(offered_load(s, 0).has_value());
}

TEST(Stats, PercentileInterpolatesLikeNumpy) {
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(percentile({5}, 0.99), 5);
}

TEST(Filter, TimeWindowQueueAndGpus) {
  Trace t = philly_small();
  apply_filter(t, *parse_filter("from=1h"));
  ASSERT_EQ(t.jobs.size(), 1u);
  EXPECT_EQ(t.jobs[0].gpus, 128u);
  EXPECT_EQ(t.jobs[0].submit.us(), 0);  // re-based to the first kept job
  t = philly_small();
  apply_filter(t, *parse_filter("queue=6214e9,gpus=2-8"));
  ASSERT_EQ(t.jobs.size(), 2u);
  EXPECT_EQ(t.jobs[1].id, JobId(1));
  EXPECT_EQ(t.jobs[1].gpus, 2u);
  EXPECT_FALSE(parse_filter("gpus=8-2").is_ok());
  EXPECT_EQ(parse_filter("colour=red").status().message(),
            "--filter: unknown key 'colour'; use from, to, queue, gpus");
}

TEST(Sample, SeededAndInOrder) {
  Trace a = philly_small();
  Trace b = philly_small();
  apply_sample(a, 2, 7);
  apply_sample(b, 2, 7);
  ASSERT_EQ(a.jobs.size(), 2u);
  EXPECT_EQ(a.jobs[0].duration, b.jobs[0].duration);
  EXPECT_EQ(a.jobs[1].duration, b.jobs[1].duration);
  EXPECT_EQ(a.jobs[0].submit.us(), 0);
  EXPECT_LE(a.jobs[0].submit, a.jobs[1].submit);
}

TEST(Synth, SameSeedSameJobs) {
  SynthSpec spec = *synth_preset("helios");
  spec.jobs = 2000;
  spec.seed = 42;
  const Trace a = synthesize(spec);
  const Trace b = synthesize(spec);
  ASSERT_EQ(a.jobs.size(), 2000u);
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    ASSERT_EQ(a.jobs[i].submit, b.jobs[i].submit);
    ASSERT_EQ(a.jobs[i].duration, b.jobs[i].duration);
    ASSERT_EQ(a.jobs[i].gpus, b.jobs[i].gpus);
  }
  spec.seed = 43;
  EXPECT_NE(synthesize(spec).jobs[5].duration, a.jobs[5].duration);
}

TEST(Synth, PhillyPresetMatchesTheSourceStatistics) {
  SynthSpec spec = *synth_preset("philly");
  spec.jobs = 100'000;
  const TraceStats s = compute_stats(synthesize(spec));
  EXPECT_NEAR(s.duration_s.at("p50"), 1144, 1144 * 0.05);
  EXPECT_NEAR(s.duration_s.at("p25"), 115, 115 * 0.05);
  EXPECT_NEAR(s.duration_s.at("p90"), 11265, 11265 * 0.1);
  EXPECT_NEAR(s.duration_s.at("p99"), 254758, 254758 * 0.15);
  EXPECT_NEAR(s.mean_duration_s, 13136, 13136 * 0.25);  // the mean rides on the extreme tail
  EXPECT_NEAR(static_cast<double>(s.gpu_histogram.at(1)) / 100'000, 76627.0 / 82247, 0.005);
  EXPECT_NEAR(s.span.to_seconds() / 99'999, 9408690.0 / 82246, 2.0);
  EXPECT_NEAR(static_cast<double>(s.queues.at("6214e9").jobs) / 100'000, 41226.0 / 82247, 0.01);
}

// Durations follow the GPU count as in the data, so the offered load does too: 42,811 GPU-seconds
// per job in the bundled trace (0.73 of philly.yaml over its span). With one duration law for
// every count the preset offered 0.40 of that. Seeds 1–8 give 0.96–1.04.
TEST(Synth, PhillyPresetOffersTheTracesGpuTime) {
  SynthSpec spec = *synth_preset("philly");
  spec.jobs = 100'000;
  const Trace t = synthesize(spec);
  double gpu_s = 0;
  std::vector<double> eight;
  for (const JobSpec& j : t.jobs) {
    gpu_s += j.gpus * j.duration.to_seconds();
    if (j.gpus == 8) {
      eight.push_back(j.duration.to_seconds());
    }
  }
  EXPECT_NEAR(gpu_s / 100'000 / 42811, 1.0, 0.15);
  std::sort(eight.begin(), eight.end());
  ASSERT_GT(eight.size(), 1000u);
  EXPECT_NEAR(eight[eight.size() / 2], 23683, 23683 * 0.15);  // 8-GPU median in the data
}

// A duration class without knots from q=0 to q=1 is refused, naming the tenant and the class.
TEST(Synth, ABadDurationClassIsNamed) {
  SynthSpec spec = *synth_preset("philly");
  ASSERT_TRUE(check_spec(spec).is_ok());
  spec.tenants[1].durations_by_gpus[2].quantiles.pop_back();  // the class up to 8 GPUs loses q=1
  const Status st = check_spec(spec);
  EXPECT_EQ(st.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "synth: tenant '11cb48': the duration class up to 8 GPUs needs knots from q=0 to q=1");
}

TEST(Synth, DiurnalArrivalsKeepTheMeanRateAndPeakAfternoons) {
  SynthSpec spec = *synth_preset("helios");
  spec.jobs = 50'000;
  spec.arrival = ArrivalKind::kDiurnal;
  spec.diurnal_amplitude = 0.8;
  const Trace t = synthesize(spec);
  EXPECT_NEAR(t.jobs.back().submit.to_seconds() / 49'999, spec.mean_interarrival_s, 3.0);
  uint64_t first_half = 0;  // sin > 0 in the first half of each day
  for (const auto& j : t.jobs) {
    first_half += std::fmod(j.submit.to_seconds(), 86400) < 43200 ? 1 : 0;
  }
  EXPECT_GT(static_cast<double>(first_half) / 50'000, 0.70);
}

TEST(Synth, HeliosPresetMatchesTheFile) {
  SynthSpec spec = *synth_preset("helios");
  spec.jobs = 20'000;
  const TraceStats s = compute_stats(synthesize(spec));
  EXPECT_NEAR(static_cast<double>(s.cpu_only_jobs) / 20'000, 4204.0 / 15000, 0.015);
  EXPECT_NEAR(s.duration_s.at("p50"), 102, 102 * 0.15);  // the bundled file's, over all jobs
  EXPECT_NEAR(s.duration_s.at("p90"), 12328, 12328 * 0.15);
  // GPU-seconds per job: 86,066 in the file; 100,000 jobs of seeds 1–8 give 0.91–0.99 of it (the
  // preset leaves out GPU counts with < 60 jobs), one duration law for every job gave 0.64.
  spec.jobs = 100'000;
  double gpu_s = 0;
  for (const JobSpec& j : synthesize(spec).jobs) {
    gpu_s += j.gpus * j.duration.to_seconds();
  }
  EXPECT_NEAR(gpu_s / 100'000 / 86066, 0.95, 0.1);
  EXPECT_FALSE(synth_preset("borg").is_ok());
}

}  // namespace
}  // namespace boreas::trace

namespace boreas::trace {
namespace {

TEST(Load, OfferedLoadOfTheFixtureByHand) {
  // Submits at 0 (8 GPUs × 2951.5 s), 2932 s (1 × 66 s and 2 × 10 s) and 86400 s (128 × 1 s): a
  // one-day window. The last job starts at the window's end, so none of its work is inside:
  // 23612 + 66 + 20 = 23698 GPU-seconds over 10 GPUs × 86400 s.
  EXPECT_DOUBLE_EQ(offered_load(philly_small(), 10), 23698.0 / 864000);
  EXPECT_EQ(offered_load(philly_small(), 0), 0);
}

TEST(Load, OneLongJobIsClippedToTheWindow) {
  // Two 1-GPU jobs submitted 100 s apart, the first running 10,000 s: only its first 100 s lie in
  // the window, so on 1 GPU the load is (100 + 0) / 100 = 1, not 100.
  Trace t = philly_small();
  t.jobs.resize(2);
  t.jobs[0].gpus = t.jobs[1].gpus = 1;
  t.jobs[0].duration = Duration::seconds(10000);
  t.jobs[1].submit = Time::zero() + Duration::seconds(100);
  EXPECT_DOUBLE_EQ(offered_load(t, 1), 1.0);
}

TEST(Load, SetOfferedLoadRescalesGapsOnly) {
  const Trace before = philly_small();
  Trace t = philly_small();
  ASSERT_TRUE(set_offered_load(t, 10, 0.5).is_ok());
  EXPECT_NEAR(offered_load(t, 10), 0.5, 1e-9);
  // By hand: stretched by f the window is W = 86400 f. If the first three jobs fit inside it
  // (and the last, submitted at its end, counts 0) the load is 23698 / (10 W) = 0.5, so
  // f = 23698 / 432000 and W = 4740 s: the first job's 2951.5 s and the others' 66 s and 10 s
  // from 2932 f = 161 s indeed fit.
  const double factor = 23698.0 / 432000;
  ASSERT_EQ(t.jobs.size(), before.jobs.size());
  for (size_t i = 0; i < t.jobs.size(); ++i) {  // job mix unchanged, order kept, gaps scaled by f
    EXPECT_EQ(t.jobs[i].duration, before.jobs[i].duration);
    EXPECT_EQ(t.jobs[i].gpus, before.jobs[i].gpus);
    EXPECT_NEAR(t.jobs[i].submit.to_seconds(), before.jobs[i].submit.to_seconds() * factor, 1e-3);
  }
  EXPECT_EQ(t.jobs.front().submit, Time::zero());
}

TEST(Load, SetOfferedLoadIsLoudWhenThereIsNoRate) {
  Trace t = philly_small();
  t.jobs.resize(1);
  const Status st = set_offered_load(t, 10, 0.7);
  EXPECT_FALSE(st.is_ok());
  EXPECT_NE(st.message().find("one instant"), std::string::npos);
  Trace u = philly_small();
  EXPECT_FALSE(set_offered_load(u, 10, 0).is_ok());
}

TEST(Slice, KeepsConsecutiveJobsFromASeededStart) {
  const Trace full = philly_small();
  std::set<int64_t> starts;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Trace t = philly_small();
    apply_slice(t, 2, seed);
    ASSERT_EQ(t.jobs.size(), 2u);
    EXPECT_EQ(t.jobs[0].submit, Time::zero());
    // The two kept jobs are neighbours in the full trace: find the first by its duration.
    const auto first = std::find_if(full.jobs.begin(), full.jobs.end(),
                                    [&](const JobSpec& j) { return j.duration == t.jobs[0].duration; });
    ASSERT_NE(first + 1, full.jobs.end());
    EXPECT_EQ((first + 1)->duration, t.jobs[1].duration);
    starts.insert(first - full.jobs.begin());
    Trace again = philly_small();
    apply_slice(again, 2, seed);
    EXPECT_EQ(again.jobs[0].duration, t.jobs[0].duration);  // same seed, same slice
  }
  EXPECT_EQ(starts.size(), 3u);  // every start 0..2 is drawn
}

}  // namespace
}  // namespace boreas::trace
