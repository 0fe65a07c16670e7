#include "serving/text_lines.h"

#include <charconv>
#include <cmath>

namespace boreas::serving {

std::vector<std::string_view> split_commas(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    out.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) {
      return out;
    }
    start = comma + 1;
  }
}

std::optional<int64_t> parse_int(std::string_view s) {
  int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || ptr != s.data() + s.size() || s.empty()) {
    return std::nullopt;
  }
  return v;
}

std::optional<double> parse_double(std::string_view s) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || ptr != s.data() + s.size() || s.empty() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

namespace {

// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::optional<int64_t> field(std::string_view s, size_t pos, size_t len, int64_t lo, int64_t hi) {
  if (pos + len > s.size()) {
    return std::nullopt;
  }
  auto v = parse_int(s.substr(pos, len));
  if (!v || *v < lo || *v > hi) {
    return std::nullopt;
  }
  return v;
}

// ".6805900" -> 680590 us (digits past the sixth are dropped).
std::optional<int64_t> fraction_us(std::string_view frac) {
  int64_t us = 0;
  for (size_t i = 0; i < 6; ++i) {
    us *= 10;
    if (i < frac.size()) {
      if (frac[i] < '0' || frac[i] > '9') {
        return std::nullopt;
      }
      us += frac[i] - '0';
    }
  }
  for (char c : frac) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
  }
  return us;
}

}  // namespace

std::optional<int64_t> parse_datetime_us(std::string_view s) {
  // YYYY-MM-DD HH:MM:SS[.fraction]
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' ||
      s[16] != ':') {
    return std::nullopt;
  }
  const auto y = field(s, 0, 4, 1970, 9999);
  const auto mo = field(s, 5, 2, 1, 12);
  const auto d = field(s, 8, 2, 1, 31);
  const auto h = field(s, 11, 2, 0, 23);
  const auto mi = field(s, 14, 2, 0, 59);
  const auto sec = field(s, 17, 2, 0, 60);
  if (!y || !mo || !d || !h || !mi || !sec) {
    return std::nullopt;
  }
  std::optional<int64_t> us = 0;
  if (s.size() > 19) {
    if (s[19] != '.') {
      return std::nullopt;
    }
    us = fraction_us(s.substr(20));
    if (!us) {
      return std::nullopt;
    }
  }
  const int64_t secs = days_from_civil(*y, *mo, *d) * 86400 + *h * 3600 + *mi * 60 + *sec;
  return secs * 1000000 + *us;
}

std::string where(const std::string& file, size_t line) { return file + ":" + std::to_string(line) + ": "; }

}  // namespace boreas::serving
