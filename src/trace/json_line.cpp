#include "trace/json_line.h"

#include <cstdio>

namespace boreas::trace {
namespace {

class Cursor {
 public:
  Cursor(std::string_view s, std::deque<std::string>& scratch) : s_(s), scratch_(scratch) {}
  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r')) {
      ++i_;
    }
  }
  bool eat(char c) {
    skip_ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool at_end() {
    skip_ws();
    return i_ == s_.size();
  }
  std::string_view rest() const { return s_.substr(i_ < s_.size() ? i_ : s_.size()); }
  std::optional<std::string_view> string();
  std::optional<std::string_view> literal();

 private:
  bool escape(std::string& out);
  std::string_view s_;
  size_t i_ = 0;
  std::deque<std::string>& scratch_;
};

void append_utf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool Cursor::escape(std::string& out) {
  if (i_ >= s_.size()) {
    return false;
  }
  const char c = s_[i_++];
  switch (c) {
    case '"': case '\\': case '/': out += c; return true;
    case 'b': out += '\b'; return true;
    case 'f': out += '\f'; return true;
    case 'n': out += '\n'; return true;
    case 'r': out += '\r'; return true;
    case 't': out += '\t'; return true;
    case 'u': break;
    default: return false;
  }
  if (i_ + 4 > s_.size()) {
    return false;
  }
  uint32_t cp = 0;
  for (int k = 0; k < 4; ++k) {
    const char h = s_[i_++];
    const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
    if (d < 0) {
      return false;
    }
    cp = cp * 16 + static_cast<uint32_t>(d);
  }
  append_utf8(cp, out);  // surrogate halves are kept as-is (names only, never interpreted)
  return true;
}

std::optional<std::string_view> Cursor::string() {
  if (!eat('"')) {
    return std::nullopt;
  }
  const size_t start = i_;
  while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\\') {
    ++i_;
  }
  if (i_ < s_.size() && s_[i_] == '"') {
    return s_.substr(start, i_++ - start);
  }
  std::string out(s_.substr(start, i_ - start));
  while (i_ < s_.size() && s_[i_] != '"') {
    if (s_[i_] == '\\') {
      ++i_;
      if (!escape(out)) {
        return std::nullopt;
      }
    } else {
      out += s_[i_++];
    }
  }
  if (i_ >= s_.size()) {
    return std::nullopt;
  }
  ++i_;
  scratch_.push_back(std::move(out));
  return std::string_view(scratch_.back());
}

std::optional<std::string_view> Cursor::literal() {
  skip_ws();
  const size_t start = i_;
  while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ' ' && s_[i_] != '\t') {
    if (s_[i_] == '{' || s_[i_] == '[' || s_[i_] == '"') {
      return std::nullopt;
    }
    ++i_;
  }
  if (i_ == start) {
    return std::nullopt;
  }
  return s_.substr(start, i_ - start);
}

}  // namespace

std::optional<RowError> parse_json_line(std::string_view line, std::vector<JsonMember>& members,
                                        std::deque<std::string>& scratch) {
  members.clear();
  scratch.clear();
  Cursor c(line, scratch);
  if (!c.eat('{')) {
    return RowError{"expected a JSON object starting with '{'", std::string(line)};
  }
  if (c.eat('}')) {
    return c.at_end() ? std::nullopt : std::optional(RowError{"expected nothing after '}'", std::string(c.rest())});
  }
  while (true) {
    JsonMember m;
    const auto key = c.string();
    if (!key || !c.eat(':')) {
      return RowError{"expected a quoted key and ':'", std::string(c.rest())};
    }
    m.key = *key;
    c.skip_ws();
    m.is_string = c.rest().starts_with("\"");
    const auto value = m.is_string ? c.string() : c.literal();
    if (!value) {
      return RowError{"field '" + std::string(*key) + "': expected a string, number, true, false or null",
                      std::string(c.rest())};
    }
    m.value = *value;
    members.push_back(m);
    if (c.eat('}')) {
      break;
    }
    if (!c.eat(',')) {
      return RowError{"expected ',' or '}' after field '" + std::string(*key) + "'", std::string(c.rest())};
    }
  }
  if (!c.at_end()) {
    return RowError{"expected nothing after '}'", std::string(c.rest())};
  }
  return std::nullopt;
}

void append_json_string(std::string_view s, std::string& out) {
  out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

}  // namespace boreas::trace
