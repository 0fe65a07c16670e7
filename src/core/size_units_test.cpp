// Slurm-style memory sizes: units in any case, "B"/"iB" after them, MiB by default, rounding up
// to whole MiB, and loud errors for what is not a size.
#include "core/size_units.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace boreas {
namespace {

int64_t mib(std::string_view text, SizeNumber number = SizeNumber::kWhole) {
  auto r = parse_size_mib(text, number);
  EXPECT_TRUE(r.is_ok()) << text << ": " << r.status().message();
  return r.is_ok() ? *r : -1;
}

std::string error(std::string_view text, SizeNumber number = SizeNumber::kWhole) {
  auto r = parse_size_mib(text, number);
  EXPECT_FALSE(r.is_ok()) << text << " read as " << (r.is_ok() ? *r : 0);
  return r.is_ok() ? "" : r.status().message();
}

TEST(SizeUnits, UnitsInAnyCaseWithOrWithoutBytes) {
  EXPECT_EQ(mib("512"), 512);  // no unit: MiB, as sbatch --mem
  EXPECT_EQ(mib("0"), 0);      // callers set their own minimum
  EXPECT_EQ(mib("512M"), 512);
  EXPECT_EQ(mib("512m"), 512);
  EXPECT_EQ(mib("4G"), 4096);
  EXPECT_EQ(mib("4g"), 4096);
  EXPECT_EQ(mib("4GB"), 4096);
  EXPECT_EQ(mib("4GiB"), 4096);
  EXPECT_EQ(mib("1T"), 1024 * 1024);
  EXPECT_EQ(mib("1t"), 1024 * 1024);
  EXPECT_EQ(mib("2048K"), 2);
  EXPECT_EQ(mib("2048k"), 2);
}

TEST(SizeUnits, PartsOfAMibRoundUp) {
  EXPECT_EQ(mib("1K"), 1);  // as Slurm: 1 KiB asks for 1 MiB
  EXPECT_EQ(mib("1025K"), 2);
  EXPECT_EQ(mib("1024K"), 1);
}

TEST(SizeUnits, DecimalsOnlyWhenAsked) {
  EXPECT_EQ(mib("187.50G", SizeNumber::kDecimal), 192000);  // 187.5 × 1024, as sacct prints it
  EXPECT_EQ(mib("1.5", SizeNumber::kDecimal), 2);           // 1.5 MiB rounds up
  EXPECT_EQ(mib("0.001T", SizeNumber::kDecimal), 1049);     // 1048.576 MiB rounds up
  EXPECT_EQ(mib("16G", SizeNumber::kDecimal), 16384);
  EXPECT_EQ(error("1.5G"), "unknown unit `.5G` in `1.5G`; units are K, M, G and T (MiB when none)");
  EXPECT_EQ(error("1.G", SizeNumber::kDecimal), "`1.G`: give 1 to 9 digits after the decimal point");
  EXPECT_EQ(error("1.0000000001G", SizeNumber::kDecimal),
            "`1.0000000001G`: give 1 to 9 digits after the decimal point");
}

TEST(SizeUnits, WhatIsNoSizeIsRefusedSayingWhy) {
  EXPECT_EQ(error(""), "`` does not start with a whole number");
  EXPECT_EQ(error("G"), "`G` does not start with a whole number");
  EXPECT_EQ(error(".5G", SizeNumber::kDecimal), "`.5G` does not start with a number");
  EXPECT_EQ(error("-3"), "`-3` is negative; give a size of 0 or more");
  EXPECT_EQ(error("-1G", SizeNumber::kDecimal), "`-1G` is negative; give a size of 0 or more");
  EXPECT_EQ(error("4X"), "unknown unit `X` in `4X`; units are K, M, G and T (MiB when none)");
  for (const char* bad : {"4 G", "4GG", "4Gb", "4B", "4iB", "4Mib", "4G ", "0x10", "4P"}) {
    EXPECT_NE(error(bad).find("unknown unit"), std::string::npos) << bad;
  }
  EXPECT_NE(error(" 4G").find("does not start"), std::string::npos);
}

TEST(SizeUnits, OverflowIsRefusedNotWrapped) {
  EXPECT_EQ(mib("1048576T"), int64_t{1} << 40);  // 1 EiB: the largest
  EXPECT_EQ(error("1048577T"), "`1048577T` is too large (at most 1 EiB)");
  EXPECT_EQ(error("1099511627777"), "`1099511627777` is too large (at most 1 EiB)");
  EXPECT_EQ(error("9223372036854775807T"), "`9223372036854775807T` is too large (at most 1 EiB)");
  EXPECT_EQ(error("99999999999999999999999"), "`99999999999999999999999` is too large (at most 1 EiB)");
  EXPECT_EQ(error("1048575.9999999999T", SizeNumber::kDecimal),
            "`1048575.9999999999T`: give 1 to 9 digits after the decimal point");
  EXPECT_EQ(mib("1048575.999999999T", SizeNumber::kDecimal), int64_t{1} << 40);  // rounds up to the limit
}

}  // namespace
}  // namespace boreas
