#pragma once
// Small parsers shared by the readers: CSV splitting, numbers, date-times, located row errors.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"

namespace boreas::trace {

// Times and durations read from text are bounded to about ±3,000 years so that differences
// between any two of them cannot overflow int64 microseconds.
inline constexpr int64_t kMaxAbsUs = 100'000'000'000'000'000;

// Why one input line was rejected. `what` is the reason without the offending text, e.g.
// "field 'gpus': expected a non-negative integer"; it is also the key --on-error=skip counts by.
struct RowError {
  std::string what;
  std::string got;
  // "what, got 'got'" with `got` shortened and made printable.
  std::string message() const;
};

RowError field_error(std::string_view field, std::string_view expected, std::string_view got);

// Splits one CSV line on `sep`. Double-quoted fields may contain `sep` and "" escapes; the views
// point into `line` or into `scratch` (a deque: growing it keeps earlier views valid). False on an unterminated quote.
bool split_csv(std::string_view line, char sep, std::vector<std::string_view>& fields,
               std::deque<std::string>& scratch);

std::string_view trim(std::string_view s);
// Removes and returns (trimmed) the text of `rest` up to the next ','.
std::string_view take_item(std::string_view& rest);
// Splits "KEY=VALUE" (both trimmed); false without '='.
bool split_key_value(std::string_view item, std::string_view& key, std::string_view& value);
std::string to_lower(std::string_view s);
// Appends `item` to `out`, preceded by `sep` unless `out` is empty.
void append_joined(std::string& out, std::string_view sep, std::string_view item);

std::optional<int64_t> parse_int(std::string_view s);
std::optional<double> parse_double(std::string_view s);
// "YYYY-MM-DD HH:MM:SS" or "YYYY-MM-DDTHH:MM:SS", optional ".fraction" and "Z"; as UTC.
std::optional<Time> parse_datetime(std::string_view s);
// Seconds (integer or decimal) times `unit_us`, rounded to the microsecond.
std::optional<int64_t> parse_scaled(std::string_view s, int64_t unit_us);

// Typed field parsers that produce located-ready errors.
std::optional<RowError> get_count(std::string_view field, std::string_view s, int64_t max, int64_t& out);
std::optional<RowError> get_seconds(std::string_view field, std::string_view s, Duration& out);

}  // namespace boreas::trace
