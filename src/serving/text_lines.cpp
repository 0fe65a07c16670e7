#include "serving/text_lines.h"

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

std::string where(const std::string& file, size_t line) { return file + ":" + std::to_string(line) + ": "; }

}  // namespace boreas::serving
