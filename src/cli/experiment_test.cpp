// `boreas experiment`: the file's errors located, and a small experiment run end to end through
// the binary (results.json's shape, the load each run was given, determinism).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/experiment_spec.h"
#include "support/run_cli.h"

namespace boreas::cli {
namespace {

using Outcome = testing::CliOutcome;

Outcome boreas(const std::string& args) { return testing::run_boreas(args, BOREAS_SOURCE_DIR); }

std::string slurp(const std::filesystem::path& p) {
  std::ifstream is(p);
  std::stringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

const char* kMinimal = R"(name: x
question: q
options: {cluster: c.yaml, trace: t.csv}
arms:
  - {name: baseline, placement: pack}
  - {name: cool, placement: cool}
)";

TEST(ExperimentSpec, ReadsArmsAndMergesOptions) {
  auto spec = parse_experiment(kMinimal, "x.yaml");
  ASSERT_TRUE(spec.is_ok()) << spec.status().message();
  EXPECT_EQ(spec->arms.size(), 2u);
  EXPECT_EQ(spec->seeds, std::vector<uint64_t>{1});
  ASSERT_EQ(spec->loads.size(), 1u);
  EXPECT_FALSE(spec->loads[0].has_value());
  const auto args = run_arguments(*spec, spec->arms[1], 0.7, 4);
  const std::vector<std::string> expected{"--cluster=c.yaml", "--trace=t.csv", "--placement=cool", "--seed=4",
                                          "--load=0.7"};
  EXPECT_EQ(args, expected);
}

TEST(ExperimentSpec, ErrorsNameTheLineAndTheFix) {
  const auto no_baseline = parse_experiment("name: x\nquestion: q\narms:\n  - {name: a}\n", "x.yaml");
  ASSERT_FALSE(no_baseline.is_ok());
  EXPECT_NE(no_baseline.status().message().find("x.yaml:4"), std::string::npos) << no_baseline.status().message();
  EXPECT_NE(no_baseline.status().message().find("baseline"), std::string::npos);
  const auto seed_in_arm =
      parse_experiment("name: x\nquestion: q\narms:\n  - {name: baseline, seed: 3}\n", "x.yaml");
  ASSERT_FALSE(seed_in_arm.is_ok());
  EXPECT_NE(seed_in_arm.status().message().find("seeds:"), std::string::npos);
  const auto bad_load = parse_experiment("name: x\nquestion: q\nloads: [0.5, high]\narms:\n  - {name: baseline}\n",
                                         "x.yaml");
  ASSERT_FALSE(bad_load.is_ok());
  EXPECT_NE(bad_load.status().message().find("x.yaml:3"), std::string::npos) << bad_load.status().message();
  const auto twice = parse_experiment(
      "name: x\nquestion: q\narms:\n  - {name: baseline}\n  - {name: baseline}\n", "x.yaml");
  EXPECT_FALSE(twice.is_ok());
  // An arm's name becomes a directory under --out: it may not climb out of it.
  const auto escape = parse_experiment(
      "name: x\nquestion: q\narms:\n  - {name: baseline}\n  - {name: ../../etc}\n", "x.yaml");
  ASSERT_FALSE(escape.is_ok());
  EXPECT_NE(escape.status().message().find("x.yaml:5"), std::string::npos) << escape.status().message();
  EXPECT_NE(escape.status().message().find("not a plain name"), std::string::npos);
}

TEST(ExperimentSpec, SeedLists) {
  EXPECT_EQ(*parse_seed_list("1-3,7"), (std::vector<uint64_t>{1, 2, 3, 7}));
  EXPECT_FALSE(parse_seed_list("3-1").is_ok());
  EXPECT_FALSE(parse_seed_list("a").is_ok());
  EXPECT_FALSE(parse_seed_list("1,1").is_ok());
}

TEST(ExperimentRun, UnknownOptionIsRefusedWithTheArm) {
  const auto dir = std::filesystem::path(BOREAS_BINARY_DIR) / "experiment-test-bad";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "bad.yaml") << "name: x\nquestion: q\noptions: {cluster: examples/clusters/peer-64.yaml, "
                                     "trace: data/peer-cases/synth1000.csv}\narms:\n  - {name: baseline, "
                                     "placment: pack}\n";
  const Outcome r = boreas("experiment run " + (dir / "bad.yaml").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_NE(r.out.find("arm 'baseline'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("placment"), std::string::npos) << r.out;
}

TEST(ExperimentRun, WritesResultsWithEveryArmLoadAndSeed) {
  const auto out = std::filesystem::path(BOREAS_BINARY_DIR) / "experiment-test-run";
  std::filesystem::remove_all(out);
  const std::string cmd = "experiment run tests/fixtures/experiments/peer_las.yaml --out ";
  const Outcome r = boreas(cmd + out.string() + "/a --threads 2");
  ASSERT_EQ(r.rc, 0) << r.out;
  const auto results = nlohmann::json::parse(slurp(out / "a" / "results.json"));
  ASSERT_EQ(results["arms"].size(), 4u);  // 2 loads × 2 arms
  for (const auto& arm : results["arms"]) {
    ASSERT_EQ(arm["seeds"].size(), 3u);
    // Every run was rescaled to its arm's load (offered_load is recorded per run).
    for (double v : arm["metrics"]["offered_load"]["values"]) {
      EXPECT_NEAR(v, arm["load"].get<double>(), 1e-6);
    }
    EXPECT_EQ(arm["metrics"]["jobs"]["mean"].get<double>(), 300);
    EXPECT_EQ(arm["name"] == "las", arm.contains("vs_baseline"));
  }
  EXPECT_TRUE(std::filesystem::exists(out / "a" / "report.html"));
  EXPECT_TRUE(std::filesystem::exists(out / "a" / "runs" / "load-0.9" / "las" / "seed-3.json"));
  // Same file and seeds, one thread instead of two: the same results, byte for byte.
  ASSERT_EQ(boreas(cmd + out.string() + "/b --threads 1").rc, 0);
  const auto again = nlohmann::json::parse(slurp(out / "b" / "results.json"));
  EXPECT_EQ(results["arms"].dump(), again["arms"].dump());
  // `experiment summary` reads the results.json, or the --out directory that holds it.
  const Outcome by_file = boreas("experiment summary " + (out / "a" / "results.json").string());
  const Outcome by_dir = boreas("experiment summary " + (out / "a").string());
  EXPECT_EQ(by_file.rc, 0) << by_file.out;
  EXPECT_NE(by_file.out.find("las"), std::string::npos) << by_file.out;
  EXPECT_EQ(by_dir.out, by_file.out);
  const Outcome empty = boreas("experiment summary " + out.string());  // holds a/ and b/, no results.json
  EXPECT_EQ(empty.rc, 1);
  EXPECT_NE(empty.out.find("cannot read " + (out / "results.json").string()), std::string::npos) << empty.out;
}

}  // namespace
}  // namespace boreas::cli
