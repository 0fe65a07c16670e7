#pragma once
// File helpers shared by the report's writers and readers.

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"

namespace boreas::report {

// Opens `path`, lets `write` fill it, and reports an open or write failure with the path.
Status write_text_file(const std::string& path, const std::function<void(std::ostream&)>& write);

// The same, gzip-compressed (for `.gz` paths): the text is built in memory, then compressed.
Status write_gzip_file(const std::string& path, const std::function<void(std::ostream&)>& write);

// Applies `read` (string -> Result<T>) to each item in order; the first error wins.
template <typename T, typename Read>
Result<std::vector<T>> read_each(const std::vector<std::string>& items, Read read) {
  std::vector<T> out;
  out.reserve(items.size());
  for (const auto& item : items) {
    auto value = read(item);
    if (!value.is_ok()) {
      return value.status();
    }
    out.push_back(std::move(*value));
  }
  return out;
}

}  // namespace boreas::report
