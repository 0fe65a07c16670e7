#include "report/csv.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace boreas::report {
namespace {

// Splits text into records of fields, honouring quotes; calls `emit(fields, first_line)`.
class RecordSplitter {
 public:
  explicit RecordSplitter(std::string_view text) : text_(text) {}

  // Returns false at the end of the text. Blank lines are skipped.
  bool next(std::vector<std::string>& fields, int64_t& first_line, bool& unterminated_quote) {
    fields.clear();
    unterminated_quote = false;
    while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
      line_ += text_[pos_] == '\n' ? 1 : 0;
      ++pos_;
    }
    if (pos_ >= text_.size()) {
      return false;
    }
    first_line = line_;
    read_record(fields, unterminated_quote);
    return true;
  }

 private:
  void read_record(std::vector<std::string>& fields, bool& unterminated_quote) {
    std::string field;
    bool quoted = false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (quoted) {
        if (c == '"' && pos_ < text_.size() && text_[pos_] == '"') {
          field += '"';
          ++pos_;
        } else if (c == '"') {
          quoted = false;
        } else {
          line_ += c == '\n' ? 1 : 0;
          field += c;
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.push_back(std::move(field));
        field.clear();
      } else if (c == '\n') {
        ++line_;
        break;
      } else if (c != '\r') {
        field += c;
      }
    }
    unterminated_quote = quoted;
    fields.push_back(std::move(field));
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
  std::vector<std::string> fields;
  int64_t line = 0;
  bool open_quote = false;
  if (!splitter.next(fields, line, open_quote)) {
    return invalid_argument(table.label_ + ": the file is empty; expected a header line");
  }
  table.header_ = fields;
  while (splitter.next(fields, line, open_quote)) {
    if (open_quote) {
      return invalid_argument(table.label_ + ":" + std::to_string(line) +
                              ": a quoted field is never closed; add the closing '\"'");
    }
    BOREAS_RETURN_IF_ERROR(table.add_record(std::move(fields), line));
    fields = {};
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

Status CsvTable::add_record(std::vector<std::string> fields, int64_t line) {
  if (fields.size() != header_.size()) {
    return invalid_argument(label_ + ":" + std::to_string(line) + ": expected " +
                            std::to_string(header_.size()) + " fields as in the header, got " +
                            std::to_string(fields.size()));
  }
  for (auto& f : fields) {
    cells_.push_back(std::move(f));
  }
  line_of_row_.push_back(line);
  return Status::ok();
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
                          ", got '" + cell(row, col) + "'");
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
