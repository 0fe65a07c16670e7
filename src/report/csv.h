#pragma once
// A small CSV reader for the simulator's output files (docs/formats/sim-output.md): a header
// line, then rows with as many fields. Fields may be quoted ("a,b", "" for a quote). Columns a
// reader does not know are kept and ignored, so files may gain columns without breaking readers.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace boreas::report {

class CsvTable {
 public:
  // `label` names the file in error messages, e.g. "fifo/jobs.csv".
  static Result<CsvTable> parse(std::string_view text, std::string label);
  static Result<CsvTable> read_file(const std::string& path, std::string label);

  const std::vector<std::string>& header() const { return header_; }
  size_t row_count() const { return line_of_row_.size(); }
  std::optional<size_t> find_column(std::string_view name) const;
  // The column index, or an error naming the file and the missing column.
  Result<size_t> require_column(std::string_view name) const;

  // Valid while the table lives.
  std::string_view cell(size_t row, size_t col) const;
  // A number, or "jobs.csv:17: column 'jct_s': expected a number, got 'x'".
  Result<double> number(size_t row, size_t col) const;
  // Like number(), but an empty cell is a valid "absent" (std::nullopt).
  Result<std::optional<double>> optional_number(size_t row, size_t col) const;
  // Decimal seconds read exactly into whole microseconds (no double rounding).
  Result<int64_t> micros(size_t row, size_t col) const;

  // "jobs.csv:17: " — the location prefix for a message about `row`.
  std::string where(size_t row) const;
  const std::string& label() const { return label_; }

 private:
  // Records the row just split at `line`, or says its field count differs from the header's.
  Status check_record(int64_t line);
  Status column_error(size_t row, size_t col, std::string_view expected) const;

  std::string label_;
  std::vector<std::string> header_;
  std::string arena_;         // every cell's text, row-major, back to back
  std::vector<size_t> ends_;  // end offset of each cell in arena_; a cell starts where the last ended
  std::vector<int64_t> line_of_row_;
};

// Parses a plain decimal ("12", "-3.5", "1e3") fully; std::nullopt if any character is left.
std::optional<double> parse_double(std::string_view text);
// Parses decimal seconds ("12", "0.000001", "3600.5") into microseconds exactly; more than six
// fractional digits are rounded half up. std::nullopt on anything else.
std::optional<int64_t> parse_seconds_as_micros(std::string_view text);

}  // namespace boreas::report
