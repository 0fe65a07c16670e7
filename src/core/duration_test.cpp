#include "core/duration.h"

#include <gtest/gtest.h>

namespace boreas {
namespace {

int64_t seconds_of(std::string_view text) {
  const auto d = parse_duration(text);
  EXPECT_TRUE(d.is_ok()) << text << ": " << d.status().message();
  return d.is_ok() ? d->us() / 1'000'000 : -1;
}

TEST(ParseDuration, BareNumberIsMinutesAsInSbatch) {
  EXPECT_EQ(seconds_of("30"), 1800);
  EXPECT_EQ(seconds_of("0"), 0);
  EXPECT_EQ(seconds_of(" 45 "), 2700);
}

TEST(ParseDuration, ColonFormsWithoutDays) {
  EXPECT_EQ(seconds_of("30:00"), 1800);                 // MM:SS
  EXPECT_EQ(seconds_of("1:30"), 90);                    // MM:SS
  EXPECT_EQ(seconds_of("02:03:04"), 2 * 3600 + 3 * 60 + 4);  // HH:MM:SS
}

TEST(ParseDuration, DayForms) {
  EXPECT_EQ(seconds_of("2-12"), 2 * 86400 + 12 * 3600);             // D-HH
  EXPECT_EQ(seconds_of("1-02:30"), 86400 + 2 * 3600 + 30 * 60);     // D-HH:MM
  EXPECT_EQ(seconds_of("1-00:00:00"), 86400);                      // D-HH:MM:SS (was 3,600 s in the old CLI)
  EXPECT_EQ(seconds_of("0-00:00:05"), 5);
}

TEST(ParseDuration, NumberWithUnit) {
  EXPECT_EQ(seconds_of("30s"), 30);
  EXPECT_EQ(seconds_of("30m"), 1800);
  EXPECT_EQ(seconds_of("2h"), 7200);
  EXPECT_EQ(seconds_of("1d"), 86400);
}

TEST(ParseDuration, UnlimitedInAnyCase) {
  EXPECT_TRUE(parse_duration("UNLIMITED")->is_infinite());
  EXPECT_TRUE(parse_duration("unlimited")->is_infinite());
  EXPECT_TRUE(parse_duration("INFINITE")->is_infinite());
}

TEST(ParseDuration, SacctFractionAfterAColonIsDropped) {
  EXPECT_EQ(seconds_of("00:00:01.250"), 1);
  EXPECT_EQ(seconds_of("1-00:00:02.5"), 86402);
}

TEST(ParseDuration, RefusesWhatIsNotADuration) {
  for (const char* bad : {"", " ", "abc", "1:2:3:4", "-5", "1-", "-1:00", "1.5", "30x", "m", "1h30m",
                          "1:", ":30", "1--2", "2-1:2:3:4", "12345678901", "+5", "1e3"}) {
    const auto d = parse_duration(bad);
    EXPECT_FALSE(d.is_ok()) << "`" << bad << "` was read as " << (d.is_ok() ? d->us() : 0) << " us";
  }
}

TEST(ParseDuration, ErrorQuotesTheTextAndListsTheFormats) {
  const auto d = parse_duration("soon");
  ASSERT_FALSE(d.is_ok());
  EXPECT_NE(d.status().message().find("`soon`"), std::string::npos) << d.status().message();
  EXPECT_NE(d.status().message().find("D-HH:MM:SS"), std::string::npos);
  EXPECT_NE(d.status().message().find("UNLIMITED"), std::string::npos);
}

TEST(ParseDuration, RefusesMoreThanTheMaximum) {
  EXPECT_TRUE(parse_duration("100000-00:00:00").is_ok());
  const auto d = parse_duration("100001-00:00:00");
  ASSERT_FALSE(d.is_ok());
  EXPECT_NE(d.status().message().find("UNLIMITED"), std::string::npos);
}

TEST(FormatSlurmDuration, SqueueTimeColumn) {
  EXPECT_EQ(format_slurm_duration(Duration::seconds(5)), "0:05");
  EXPECT_EQ(format_slurm_duration(Duration::seconds(61 * 60 + 1)), "1:01:01");
  EXPECT_EQ(format_slurm_duration(Duration::seconds(86400 + 2 * 3600 + 3 * 60 + 4)), "1-02:03:04");
  EXPECT_EQ(format_slurm_duration(Duration::infinite()), "UNLIMITED");
  EXPECT_EQ(format_slurm_duration(Duration::seconds(-3)), "0:00");
}

TEST(FormatSlurmDuration, ParsesBackToTheSameSeconds) {
  for (int64_t s : {0, 59, 3599, 3600, 86399, 86400, 90061, 1'000'000}) {
    EXPECT_EQ(seconds_of(format_slurm_duration(Duration::seconds(s))), s) << s;
  }
}

}  // namespace
}  // namespace boreas
