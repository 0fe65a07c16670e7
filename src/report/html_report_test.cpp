#include "report/html_report.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/testing.h"

namespace boreas::report {
namespace {

using nlohmann::json;

const std::string kDataOpen = R"(<script type="application/json" id="boreas-data">)";

json embedded_data(const std::string& page) {
  const size_t begin = page.find(kDataOpen);
  EXPECT_NE(begin, std::string::npos);
  const size_t from = begin + kDataOpen.size();
  return json::parse(page.substr(from, page.find("</script>", from) - from));
}

TEST(RenderHtml, FillsEveryPlaceholderAndEscapes) {
  std::ostringstream out;
  render_html(out, {{"title", "A <b> & </script> test"}, {"policies", json::array()}});
  const std::string page = out.str();
  EXPECT_EQ(page.find("{{"), std::string::npos);
  EXPECT_NE(page.find("<title>A &lt;b&gt; &amp; &lt;/script&gt; test</title>"), std::string::npos);
  EXPECT_NE(page.find(R"("A <b> & <\/script> test")"), std::string::npos);  // JSON cannot close the tag
  EXPECT_EQ(embedded_data(page)["title"], "A <b> & </script> test");
}

TEST(RenderHtml, IsSelfContained) {
  std::ostringstream out;
  render_html(out, {{"title", "t"}});
  const std::string page = out.str();
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_NE(page.find("vega-lite"), std::string::npos);
  EXPECT_NE(page.find("vegaEmbed"), std::string::npos);
}

TEST(WriteHtmlReport, FixtureRunsGiveOneRowPerPolicy) {
  const auto path = testing::scratch_dir() / "report.html";
  ReportOptions options;
  options.title = "Fixture";
  const Status s = write_html_report({testing::fixture("hybrid")}, path.string(), options);
  ASSERT_TRUE(s.is_ok()) << s.message();
  const json data = embedded_data(testing::read_file(path));
  EXPECT_EQ(data["table"]["rows"].size(), 2u);
  EXPECT_EQ(data["zones"].size(), 4u);
  EXPECT_EQ(data["heatmap"][0]["racks"], json::array({"r01", "r02"}));
}

TEST(WriteHtmlReport, BadRunFolderIsReportedNotWritten) {
  const auto path = testing::scratch_dir() / "report.html";
  const Status s = write_html_report({"/nonexistent/run"}, path.string(), {});
  EXPECT_EQ(s.code(), ErrorCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(path));
}

// A run folder the size of the full Philly comparison: 82k jobs x 3 policies, 90 days sampled
// every 300 s, 550 nodes. Deterministic, generated here rather than committed.
void write_synthetic_policy(const std::filesystem::path& dir, const std::string& policy, uint64_t seed) {
  constexpr int kJobs = 82'000;
  constexpr int kSamples = 90 * 288;
  std::filesystem::create_directories(dir);
  std::ofstream jobs(dir / "jobs.csv");
  std::ofstream runs(dir / "runs.csv");
  jobs << "job_id,name,queue,user,gpus,submit_s,first_start_s,end_s,jct_s,queue_s,preemptions,gpu_seconds,state,"
          "pending_reason\n";
  runs << "job_id,run,start_s,end_s,nodes,gpus,end_reason\n";
  uint64_t x = seed;
  for (int j = 0; j < kJobs; ++j) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const int64_t submit = j * 94;
    const int64_t wait = static_cast<int64_t>((x >> 33) % 7200);
    const int64_t run = 60 + static_cast<int64_t>((x >> 13) % 86400);
    const int node = static_cast<int>((x >> 45) % 550);
    jobs << j << ",job" << j << ",vc" << (j % 14) << ",u" << (j % 300) << ",1," << submit << ","
         << submit + wait << "," << submit + wait + run << "," << wait + run << "," << wait << ",0," << run
         << ",completed,\n";
    runs << j << ",0," << submit + wait << ".5," << submit + wait + run << ".25,r" << node / 11 << "-n" << node
         << ",1,completed\n";
  }
  std::ofstream series(dir / "timeseries.csv");
  series << "time_s,allocated_gpus,running_jobs,pending_jobs,pending_gpus\n";
  for (int i = 0; i < kSamples; ++i) {
    series << i * 300 << "," << (i * 7) % 2000 << "," << (i * 3) % 900 << "," << i % 50 << "," << i % 80 << "\n";
  }
  std::ofstream(dir / "summary.json") << json{{"policy", policy}, {"gpus", 2490}, {"avg_jct_s", 1.0}}.dump();
}

TEST(WriteHtmlReport, PhillySizedComparisonStaysUnderTenMegabytes) {
  const auto dir = testing::scratch_dir();
  const std::vector<std::string> policies{"fifo", "backfill", "hybrid-aware"};
  for (size_t p = 0; p < policies.size(); ++p) {
    write_synthetic_policy(dir / "run" / policies[p], policies[p], 17 + p);
  }
  const auto path = dir / "report.html";
  const Status s = write_html_report({(dir / "run").string()}, path.string(), {});
  ASSERT_TRUE(s.is_ok()) << s.message();
  EXPECT_LT(std::filesystem::file_size(path), 10'000'000u);
  const json data = embedded_data(testing::read_file(path));
  EXPECT_EQ(data["cdf"][0]["points"].size(), 2000u);
  EXPECT_LE(data["load"][0]["points"].size(), 2000u);
  EXPECT_EQ(data["heatmap"][0]["racks"].size(), 48u);
  EXPECT_EQ(data["heatmap"][0]["racks_total"], 50);
}

}  // namespace
}  // namespace boreas::report
