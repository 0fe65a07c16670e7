#pragma once
// Splitting file contents into numbered lines and comma fields, for the request trace readers.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace boreas::serving {

// Calls `fn(line_number, line)` for every line (1-based, without the end of line, '\r' dropped);
// stops early and returns false when `fn` returns false.
template <typename Fn>
bool for_each_line(std::string_view text, Fn&& fn) {
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    if (!fn(line_no, line)) {
      return false;
    }
  }
  return true;
}

std::vector<std::string_view> split_commas(std::string_view line);
std::optional<int64_t> parse_int(std::string_view s);
std::optional<double> parse_double(std::string_view s);
// "2023-11-16 18:15:46.6805900" -> microseconds since 1970-01-01 (time zone as written).
std::optional<int64_t> parse_datetime_us(std::string_view s);
// "file:line: " for messages.
std::string where(const std::string& file, size_t line);

}  // namespace boreas::serving
