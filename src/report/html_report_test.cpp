#include "report/html_report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "report/synthetic_run.h"
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

// The size of the full Philly comparison: 82k jobs x 3 policies (see SyntheticRunSize).
TEST(WriteHtmlReport, PhillySizedComparisonStaysUnderTenMegabytes) {
  const auto dir = testing::scratch_dir();
  const std::vector<std::string> policies{"fifo", "backfill", "hybrid-aware"};
  for (size_t p = 0; p < policies.size(); ++p) {
    write_synthetic_policy((dir / "run" / policies[p]).string(), policies[p], 17 + p, {});
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
