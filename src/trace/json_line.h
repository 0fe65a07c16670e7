#pragma once
// A parser for the one JSON shape the native format uses: a flat object whose values are strings,
// numbers, true, false or null. Faster than a general JSON library for a million lines.

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/text.h"

namespace boreas::trace {

struct JsonMember {
  std::string_view key;
  std::string_view value;  // unescaped string contents, or the literal text of a number/true/false/null
  bool is_string = false;
};

// Views point into `line` or `scratch`. Nested objects and arrays are an error.
std::optional<RowError> parse_json_line(std::string_view line, std::vector<JsonMember>& members,
                                        std::deque<std::string>& scratch);
// Appends `s` as a quoted JSON string.
void append_json_string(std::string_view s, std::string& out);

}  // namespace boreas::trace
