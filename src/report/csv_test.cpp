#include "report/csv.h"

#include <gtest/gtest.h>

namespace boreas::report {
namespace {

TEST(CsvTable, ReadsHeaderRowsQuotesAndCrlf) {
  auto table = CsvTable::parse("a,b,c\r\n1,\"x,y\",\"say \"\"hi\"\"\"\r\n\n2,,z\n", "t.csv");
  ASSERT_TRUE(table.is_ok()) << table.status().message();
  EXPECT_EQ(table->header(), (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(table->row_count(), 2u);
  EXPECT_EQ(table->cell(0, 1), "x,y");
  EXPECT_EQ(table->cell(0, 2), "say \"hi\"");
  EXPECT_EQ(table->cell(1, 1), "");
  EXPECT_EQ(table->where(1), "t.csv:4: ");  // the blank line 3 is skipped but counted
}

TEST(CsvTable, NumberErrorNamesFileLineColumnAndValue) {
  auto table = CsvTable::parse("job_id,jct_s\n1,10\n2,x\n", "jobs.csv");
  ASSERT_TRUE(table.is_ok());
  auto col = table->require_column("jct_s");
  ASSERT_TRUE(col.is_ok());
  EXPECT_EQ(*table->number(0, *col), 10.0);
  auto bad = table->number(1, *col);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_EQ(bad.status().message(), "jobs.csv:3: column 'jct_s': expected a number, got 'x'");
}

TEST(CsvTable, OptionalNumberTreatsEmptyAsAbsent) {
  auto table = CsvTable::parse("v\n\"\"\n2.5\n", "t.csv");
  ASSERT_TRUE(table.is_ok());
  EXPECT_FALSE(table->optional_number(0, 0)->has_value());
  EXPECT_EQ(table->optional_number(1, 0)->value(), 2.5);
}

TEST(CsvTable, RejectsWrongFieldCountWithLine) {
  auto table = CsvTable::parse("a,b\n1,2\n3\n", "runs.csv");
  ASSERT_FALSE(table.is_ok());
  EXPECT_EQ(table.status().message(), "runs.csv:3: expected 2 fields as in the header, got 1");
}

TEST(CsvTable, RejectsEmptyFileAndOpenQuote) {
  EXPECT_EQ(CsvTable::parse("", "e.csv").status().message(), "e.csv: the file is empty; expected a header line");
  auto open = CsvTable::parse("a\n\"abc\n", "q.csv");
  ASSERT_FALSE(open.is_ok());
  EXPECT_NE(open.status().message().find("q.csv:2: a quoted field is never closed"), std::string::npos);
}

TEST(CsvTable, MissingColumnSaysWhichAndWhere) {
  auto table = CsvTable::parse("a\n1\n", "jobs.csv");
  ASSERT_TRUE(table.is_ok());
  EXPECT_EQ(table->require_column("jct_s").status().message(),
            "jobs.csv:1: missing column 'jct_s' in the header; see docs/formats/sim-output.md");
}

TEST(CsvTable, MissingFileIsIoError) {
  auto table = CsvTable::read_file("/nonexistent/boreas/jobs.csv", "jobs.csv");
  ASSERT_FALSE(table.is_ok());
  EXPECT_EQ(table.status().code(), ErrorCode::kIo);
}

TEST(ParseSeconds, ExactMicroseconds) {
  EXPECT_EQ(parse_seconds_as_micros("12"), 12'000'000);
  EXPECT_EQ(parse_seconds_as_micros("0.000001"), 1);
  EXPECT_EQ(parse_seconds_as_micros("3600.5"), 3'600'500'000);
  EXPECT_EQ(parse_seconds_as_micros(".25"), 250'000);
  EXPECT_EQ(parse_seconds_as_micros("1.0000005"), 1'000'001);  // seventh digit rounds half up
  EXPECT_EQ(parse_seconds_as_micros("-1.5"), -1'500'000);
  EXPECT_EQ(parse_seconds_as_micros(""), std::nullopt);
  EXPECT_EQ(parse_seconds_as_micros("1e3"), std::nullopt);
  EXPECT_EQ(parse_seconds_as_micros("1.2.3"), std::nullopt);
}

TEST(ParseDouble, WholeTextOnly) {
  EXPECT_EQ(parse_double("1e3"), 1000.0);
  EXPECT_EQ(parse_double("12abc"), std::nullopt);
  EXPECT_EQ(parse_double(""), std::nullopt);
  EXPECT_EQ(parse_double("nan"), std::nullopt);
}

}  // namespace
}  // namespace boreas::report
