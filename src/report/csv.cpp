#include "report/csv.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace boreas::report {
namespace {

// Splits text into records of fields, honouring quotes. Field text goes into one arena string
// and each field's end offset into `ends`, so a large file costs no allocation per cell.
class RecordSplitter {
 public:
  explicit RecordSplitter(std::string_view text) : text_(text) {}

  // Appends the next record's fields; returns false at the end of the text. Blank lines are skipped.
  bool next(std::string& arena, std::vector<size_t>& ends, int64_t& first_line, bool& unterminated_quote) {
    unterminated_quote = false;
    while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
      line_ += text_[pos_] == '\n' ? 1 : 0;
      ++pos_;
    }
    if (pos_ >= text_.size()) {
      return false;
    }
    first_line = line_;
    unterminated_quote = read_record(arena, ends);
    return true;
  }

 private:
  // Returns true when the text ends inside a quoted field.
  bool read_record(std::string& arena, std::vector<size_t>& ends) {
    bool quoted = false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (quoted) {
        quoted = read_quoted_char(c, arena);
      } else if (c == '"') {
        quoted = true;
      } else if (c != ',' && c != '\n' && c != '\r') {
        append_plain_run(arena);  // most fields: copy up to the next delimiter at once
      } else if (c == ',') {
        ends.push_back(arena.size());
      } else if (c == '\n') {
        ++line_;
        break;
      }  // a '\r' (of "\r\n") is dropped
    }
    ends.push_back(arena.size());
    return quoted;
  }

  // One character inside quotes; returns whether the field is still quoted.
  bool read_quoted_char(char c, std::string& arena) {
    if (c == '"' && pos_ < text_.size() && text_[pos_] == '"') {
      arena += '"';
      ++pos_;
      return true;
    }
    if (c == '"') {
      return false;
    }
    line_ += c == '\n' ? 1 : 0;
    arena += c;
    return true;
  }

  // Appends text_[pos_ - 1] and the characters after it up to the next delimiter or quote.
  void append_plain_run(std::string& arena) {
    const size_t end = std::min(text_.find_first_of(",\n\r\"", pos_), text_.size());
    arena.append(text_.substr(pos_ - 1, end - pos_ + 1));
    pos_ = end;
  }

  std::string_view text_;
  size_t pos_ = 0;
  int64_t line_ = 1;
};

}  // namespace

std::optional<double> parse_double(std::string_view text) {
  if (text.empty()) {
    return std::nullopt;
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<int64_t> parse_seconds_as_micros(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  const std::string_view body = negative ? text.substr(1) : text;
  const size_t dot = body.find('.');
  const std::string_view whole = body.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view() : body.substr(dot + 1);
  if (whole.empty() && frac.empty()) {
    return std::nullopt;
  }
  int64_t seconds = 0;
  if (!whole.empty()) {
    const auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), seconds);
    if (ec != std::errc() || end != whole.data() + whole.size() || seconds < 0 ||
        seconds > 9'000'000'000'000) {
      return std::nullopt;
    }
  }
  int64_t micros = 0;
  int64_t scale = 100'000;
  for (size_t i = 0; i < frac.size(); ++i) {
    if (frac[i] < '0' || frac[i] > '9') {
      return std::nullopt;
    }
    if (i < 6) {
      micros += (frac[i] - '0') * scale;
      scale /= 10;
    } else if (i == 6 && frac[i] >= '5') {
      ++micros;  // round half up on the seventh digit
    }
  }
  const int64_t total = seconds * 1'000'000 + micros;
  return negative ? -total : total;
}

Result<CsvTable> CsvTable::parse(std::string_view text, std::string label) {
  CsvTable table;
  table.label_ = std::move(label);
  RecordSplitter splitter(text);
  std::string header_text;
  std::vector<size_t> header_ends;
  int64_t line = 0;
  bool open_quote = false;
  if (!splitter.next(header_text, header_ends, line, open_quote)) {
    return invalid_argument(table.label_ + ": the file is empty; expected a header line");
  }
  size_t begin = 0;
  for (const size_t end : header_ends) {
    table.header_.push_back(header_text.substr(begin, end - begin));
    begin = end;
  }
  table.arena_.reserve(text.size());
  while (splitter.next(table.arena_, table.ends_, line, open_quote)) {
    if (open_quote) {
      return invalid_argument(table.label_ + ":" + std::to_string(line) +
                              ": a quoted field is never closed; add the closing '\"'");
    }
    BOREAS_RETURN_IF_ERROR(table.check_record(line));
  }
  return table;
}

Result<CsvTable> CsvTable::read_file(const std::string& path, std::string label) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return io_error(path + ": cannot open the file for reading (" + std::strerror(errno) + ")");
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse(buffer.str(), std::move(label));
}

Status CsvTable::check_record(int64_t line) {
  const size_t fields = ends_.size() - line_of_row_.size() * header_.size();
  if (fields != header_.size()) {
    return invalid_argument(label_ + ":" + std::to_string(line) + ": expected " +
                            std::to_string(header_.size()) + " fields as in the header, got " +
                            std::to_string(fields));
  }
  line_of_row_.push_back(line);
  return Status::ok();
}

std::string_view CsvTable::cell(size_t row, size_t col) const {
  const size_t i = row * header_.size() + col;
  const size_t begin = i == 0 ? 0 : ends_[i - 1];
  return std::string_view(arena_).substr(begin, ends_[i] - begin);
}

std::optional<size_t> CsvTable::find_column(std::string_view name) const {
  for (size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] == name) {
      return i;
    }
  }
  return std::nullopt;
}

Result<size_t> CsvTable::require_column(std::string_view name) const {
  if (auto col = find_column(name)) {
    return *col;
  }
  return invalid_argument(label_ + ":1: missing column '" + std::string(name) +
                          "' in the header; see docs/formats/sim-output.md");
}

std::string CsvTable::where(size_t row) const {
  return label_ + ":" + std::to_string(line_of_row_[row]) + ": ";
}

Status CsvTable::column_error(size_t row, size_t col, std::string_view expected) const {
  return invalid_argument(where(row) + "column '" + header_[col] + "': expected " + std::string(expected) +
                          ", got '" + std::string(cell(row, col)) + "'");
}

Result<double> CsvTable::number(size_t row, size_t col) const {
  if (auto v = parse_double(cell(row, col))) {
    return *v;
  }
  return column_error(row, col, "a number");
}

Result<std::optional<double>> CsvTable::optional_number(size_t row, size_t col) const {
  if (cell(row, col).empty()) {
    return std::optional<double>();
  }
  if (auto v = parse_double(cell(row, col))) {
    return std::optional<double>(*v);
  }
  return column_error(row, col, "a number");
}

Result<int64_t> CsvTable::micros(size_t row, size_t col) const {
  if (auto v = parse_seconds_as_micros(cell(row, col))) {
    return *v;
  }
  return column_error(row, col, "decimal seconds");
}

}  // namespace boreas::report
