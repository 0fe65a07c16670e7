#include "trace/text.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace boreas::trace {
namespace {
constexpr size_t kMaxShown = 60;

std::string printable(std::string_view s) {
  std::string out;
  for (const char c : s.substr(0, kMaxShown)) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (s.size() > kMaxShown) {
    out += "...";
  }
  return out;
}

// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool digits(std::string_view s, size_t pos, size_t n, int64_t& out) {
  if (pos + n > s.size()) {
    return false;
  }
  out = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') {
      return false;
    }
    out = out * 10 + (s[i] - '0');
  }
  return true;
}
}  // namespace

std::string RowError::message() const { return what + ", got '" + printable(got) + "'"; }

RowError field_error(std::string_view field, std::string_view expected, std::string_view got) {
  return RowError{"field '" + std::string(field) + "': expected " + std::string(expected), std::string(got)};
}

bool split_csv(std::string_view line, char sep, std::vector<std::string_view>& fields,
               std::deque<std::string>& scratch) {
  fields.clear();
  scratch.clear();
  size_t pos = 0;
  while (true) {
    if (pos < line.size() && line[pos] == '"') {
      std::string value;
      size_t i = pos + 1;
      while (true) {
        const size_t q = line.find('"', i);
        if (q == std::string_view::npos) {
          return false;
        }
        value.append(line.substr(i, q - i));
        if (q + 1 < line.size() && line[q + 1] == '"') {
          value += '"';
          i = q + 2;
          continue;
        }
        pos = q + 1;
        break;
      }
      scratch.push_back(std::move(value));
      fields.push_back(scratch.back());
      if (pos >= line.size()) {
        break;
      }
      if (line[pos] != sep) {
        return false;
      }
      ++pos;
      continue;
    }
    const size_t next = line.find(sep, pos);
    fields.push_back(line.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos));
    if (next == std::string_view::npos) {
      break;
    }
    pos = next + 1;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

std::string_view take_item(std::string_view& rest) {
  const size_t comma = rest.find(',');
  const std::string_view item = trim(rest.substr(0, comma));
  rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  return item;
}

bool split_key_value(std::string_view item, std::string_view& key, std::string_view& value) {
  const size_t eq = item.find('=');
  if (eq == std::string_view::npos) {
    return false;
  }
  key = trim(item.substr(0, eq));
  value = trim(item.substr(eq + 1));
  return true;
}

void append_joined(std::string& out, std::string_view sep, std::string_view item) {
  if (!out.empty()) {
    out += sep;
  }
  out += item;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

template <typename T>
std::optional<T> parse_number(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
  }
  T v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
    return std::nullopt;
  }
  return v;
}

std::optional<int64_t> parse_int(std::string_view s) { return parse_number<int64_t>(s); }

std::optional<double> parse_double(std::string_view s) {
  const auto v = parse_number<double>(s);
  return v && std::isfinite(*v) ? v : std::nullopt;
}

std::optional<Time> parse_datetime(std::string_view s) {
  s = trim(s);
  int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (s.size() < 19 || !digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || (s[10] != ' ' && s[10] != 'T') || !digits(s, 11, 2, h) || s[13] != ':' ||
      !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, sec)) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) {
    return std::nullopt;
  }
  int64_t frac_us = 0;
  size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    int64_t scale = 100000;
    for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, scale /= 10) {
      frac_us += (s[pos] - '0') * scale;
    }
  }
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  }
  if (pos != s.size()) {
    return std::nullopt;
  }
  const int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
  return Time::from_micros(secs * 1'000'000 + frac_us);
}

std::optional<int64_t> parse_scaled(std::string_view s, int64_t unit_us) {
  if (const auto i = parse_int(s)) {
    if (*i > kMaxAbsUs / unit_us || *i < -kMaxAbsUs / unit_us) {
      return std::nullopt;
    }
    return *i * unit_us;
  }
  const auto v = parse_double(s);
  if (!v || std::fabs(*v * static_cast<double>(unit_us)) > static_cast<double>(kMaxAbsUs)) {
    return std::nullopt;
  }
  return std::llround(*v * static_cast<double>(unit_us));
}

std::optional<RowError> get_count(std::string_view field, std::string_view s, int64_t max, int64_t& out) {
  const auto v = parse_int(s);
  if (!v || *v < 0 || *v > max) {
    return field_error(field, "an integer from 0 to " + std::to_string(max), s);
  }
  out = *v;
  return std::nullopt;
}

std::optional<RowError> get_seconds(std::string_view field, std::string_view s, Duration& out) {
  const auto v = parse_scaled(s, 1'000'000);
  if (!v || *v < 0) {
    return field_error(field, "a non-negative number of seconds", s);
  }
  out = Duration::micros(*v);
  return std::nullopt;
}

}  // namespace boreas::trace
