#pragma once
// Splitting file contents into numbered lines and comma fields, for the request trace readers.

#include <cstdint>
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

// Splits on every comma (the serving traces have no quoted fields). Numbers and date-times are
// read with trace/text.h's parsers.
std::vector<std::string_view> split_commas(std::string_view line);
// "file:line: " for messages.
std::string where(const std::string& file, size_t line);

}  // namespace boreas::serving
