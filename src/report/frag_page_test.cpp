// The `boreas frag` page: mean curves read from curve.csv and drawn where the arithmetic says.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "report/frag_page.h"

namespace boreas::report {
namespace {

namespace fs = std::filesystem;

constexpr const char* kHeader = "seed,arrived_pct,gpu_alloc_pct,frag_amount_pct,frag_ratio_pct,unalloc_gpu_pct\n";

fs::path frag_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("boreas_frag_page_" + name);
  fs::remove_all(dir);
  return dir;
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

TEST(FragPage, ReadsTheMeanRowsOfEachPolicyInNameOrder) {
  const fs::path dir = frag_dir("read");
  write(dir / "fgd/curve.csv", std::string(kHeader) + "42,0,0,0,0,0\n42,100,90,5,50,10\n" +
                                   "mean,0,0,0,0,0\nmean,100,95,4,40,5\n");
  write(dir / "bestfit/curve.csv", std::string(kHeader) + "mean,0,0,0,0,0\nmean,100,90,8,70,10\n");
  write(dir / "notes/readme.txt", "not a policy");
  ASSERT_TRUE(is_frag_output(dir.string()));
  auto curves = read_frag_curves(dir.string());
  ASSERT_TRUE(curves.is_ok()) << curves.status().message();
  ASSERT_EQ(curves->size(), 2u);
  EXPECT_EQ((*curves)[0].policy, "bestfit");
  EXPECT_EQ((*curves)[1].policy, "fgd");
  EXPECT_EQ((*curves)[1].alloc_pct, (std::vector<double>{0, 95}));  // the seed-42 rows are left out
  EXPECT_EQ((*curves)[1].frag_ratio_pct, (std::vector<double>{0, 40}));
}

TEST(FragPage, DrawsEachPolicyAtTheRightPlace) {
  FragCurve c{"fgd", {0, 100}, {0, 50}, {0, 1}, {0, 25}, {0, 0}};
  const std::string html = frag_html({c}, "t");
  // Plot area x 50..520 for arrived 0..100, y 10..260 for 100..0 %: (0, 0 %) is at (50, 260);
  // (100, 50 %) at (520, 135). The ratio chart's (100, 25 %) is at (520, 197.5).
  EXPECT_NE(html.find("data-policy=\"fgd\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" "
                      "points=\"50.0,260.0 520.0,135.0\""),
            std::string::npos);
  EXPECT_NE(html.find("points=\"50.0,260.0 520.0,197.5\""), std::string::npos);
  // The enlarged allocation chart shows arrived 80..100 and 80..100 %: the point at arrived 0 is
  // left out, and 50 % is clamped to the bottom edge (520, 260).
  EXPECT_NE(html.find("points=\"520.0,260.0\""), std::string::npos);
  // The table: allocation at 100 % and the ratio at 90 % (the first point at or past 90: 25).
  EXPECT_NE(html.find("<tr><th>fgd</th><td>50.00</td><td>50.00</td><td>0.00</td><td>25.00</td><td>1.00</td></tr>"),
            std::string::npos);
}

TEST(FragPage, SaysWhatIsWrongWithABadDirectory) {
  const fs::path empty = frag_dir("empty");
  fs::create_directories(empty);
  EXPECT_FALSE(is_frag_output(empty.string()));
  auto none = read_frag_curves(empty.string());
  ASSERT_FALSE(none.is_ok());
  EXPECT_NE(none.status().message().find("no <policy>/curve.csv"), std::string::npos);

  const fs::path no_mean = frag_dir("nomean");
  write(no_mean / "fgd/curve.csv", std::string(kHeader) + "42,0,0,0,0,0\n");
  auto missing = read_frag_curves(no_mean.string());
  ASSERT_FALSE(missing.is_ok());
  EXPECT_NE(missing.status().message().find("fgd/curve.csv: no rows with seed 'mean'"), std::string::npos);

  const fs::path bad = frag_dir("bad");
  write(bad / "fgd/curve.csv", std::string(kHeader) + "mean,0,x,0,0,0\n");
  auto bad_number = read_frag_curves(bad.string());
  ASSERT_FALSE(bad_number.is_ok());
  EXPECT_NE(bad_number.status().message().find("fgd/curve.csv:2"), std::string::npos)
      << bad_number.status().message();
}

}  // namespace
}  // namespace boreas::report
