// --job-classes and --checkpoint-interval: parsed loudly, applied deterministically by seed.
#include <gtest/gtest.h>

#include <map>

#include "cli/job_mix.h"

namespace boreas::cli {
namespace {

trace::Trace jobs(size_t n) {
  trace::Trace t;
  for (size_t i = 0; i < n; ++i) {
    JobSpec j;
    j.id = JobId(static_cast<uint32_t>(i));
    j.gpus = 1;
    j.duration = Duration::seconds(60);
    t.jobs.push_back(j);
  }
  return t;
}

std::map<std::string, size_t> count_classes(const trace::Trace& t) {
  std::map<std::string, size_t> out;
  for (const JobSpec& j : t.jobs) {
    ++out[std::string(t.symbols.view(j.job_class))];
  }
  return out;
}

TEST(JobMix, ParsesAMixOfKnownClasses) {
  const auto mix =
      parse_job_classes("transformer-training=0.75,llm-inference=0.25", models::default_throughput_params());
  ASSERT_TRUE(mix.is_ok()) << mix.status().message();
  ASSERT_EQ(mix->size(), 2u);
  EXPECT_EQ((*mix)[1].name, "llm-inference");
  EXPECT_DOUBLE_EQ((*mix)[1].share, 0.25);
}

TEST(JobMix, RefusesBadMixesAndSaysWhy) {
  const auto params = models::default_throughput_params();
  const auto unknown = parse_job_classes("gpt=1", params);
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.status().message().find("unknown class 'gpt'"), std::string::npos);
  EXPECT_NE(unknown.status().message().find("llm-inference"), std::string::npos);  // lists the known ones
  const auto sum = parse_job_classes("cnn-training=0.5,llm-inference=0.4", params);
  ASSERT_FALSE(sum.is_ok());
  EXPECT_NE(sum.status().message().find("sum to 0.9"), std::string::npos);
  EXPECT_FALSE(parse_job_classes("cnn-training", params).is_ok());
  EXPECT_FALSE(parse_job_classes("cnn-training=x", params).is_ok());
  EXPECT_FALSE(parse_job_classes("cnn-training=0.5,cnn-training=0.5", params).is_ok());
  EXPECT_FALSE(parse_job_classes("", params).is_ok());
}

// 4,000 jobs at 3:1: the counts are binomial, sd ≈ 27 around 3,000 — 6 sd of slack either way.
TEST(JobMix, AssignsClassesInProportionAndTheSameForTheSameSeed) {
  const auto mix =
      *parse_job_classes("transformer-training=0.75,llm-inference=0.25", models::default_throughput_params());
  trace::Trace a = jobs(4000), b = jobs(4000), c = jobs(4000);
  assign_job_classes(a, mix, 7);
  assign_job_classes(b, mix, 7);
  assign_job_classes(c, mix, 8);
  const auto counts = count_classes(a);
  EXPECT_NEAR(static_cast<double>(counts.at("transformer-training")), 3000, 160);
  EXPECT_EQ(counts.at("transformer-training") + counts.at("llm-inference"), 4000u);
  EXPECT_EQ(count_classes(b), counts);
  bool same = true;
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    same = same && a.symbols.view(a.jobs[i].job_class) == b.symbols.view(b.jobs[i].job_class);
  }
  EXPECT_TRUE(same);
  EXPECT_NE(count_classes(c), counts);  // another seed, another draw
}

TEST(JobMix, KeepsAClassTheTraceGives) {
  trace::Trace t = jobs(10);
  t.jobs[3].job_class = t.symbols.intern("recsys-training");
  assign_job_classes(t, *parse_job_classes("cnn-training=1", models::default_throughput_params()), 1);
  EXPECT_EQ(t.symbols.view(t.jobs[3].job_class), "recsys-training");
  EXPECT_EQ(t.symbols.view(t.jobs[4].job_class), "cnn-training");
}

TEST(JobMix, CheckpointInterval) {
  EXPECT_EQ(*parse_checkpoint_interval("model"), Duration::zero());
  EXPECT_EQ(*parse_checkpoint_interval("3600"), Duration::seconds(3600));
  EXPECT_GT(*parse_checkpoint_interval("none"), Duration::hours(24 * 365));
  for (const char* bad : {"", "0", "-5", "1h", "never"}) {
    const auto r = parse_checkpoint_interval(bad);
    ASSERT_FALSE(r.is_ok()) << bad;
    EXPECT_NE(r.status().message().find("--checkpoint-interval"), std::string::npos);
  }
  trace::Trace t = jobs(2);
  t.jobs[0].checkpoint_interval = Duration::seconds(600);
  set_checkpoint_interval(t, Duration::seconds(3600));
  EXPECT_EQ(t.jobs[0].checkpoint_interval, Duration::seconds(600));  // the trace's own
  EXPECT_EQ(t.jobs[1].checkpoint_interval, Duration::seconds(3600));
}

}  // namespace
}  // namespace boreas::cli
