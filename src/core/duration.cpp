#include "core/duration.h"

#include <array>
#include <cctype>
#include <optional>
#include <vector>

namespace boreas {
namespace {

constexpr std::string_view kFormats =
    "expected minutes (30), MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, a number with a unit "
    "(30s, 30m, 2h, 1d) or UNLIMITED";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) {
    s.remove_prefix(1);
  }
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) {
    s.remove_suffix(1);
  }
  return s;
}

// Digits only, at most 9 of them (so no sum below can overflow).
std::optional<int64_t> digits(std::string_view s) {
  if (s.empty() || s.size() > 9) {
    return std::nullopt;
  }
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    v = v * 10 + (c - '0');
  }
  return v;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) != b[i]) {
      return false;
    }
  }
  return true;
}

// "30s", "30m", "2h", "1d" in seconds.
std::optional<int64_t> with_unit(std::string_view s) {
  if (s.size() < 2) {
    return std::nullopt;
  }
  int64_t unit = 0;
  switch (s.back()) {
    case 's': unit = 1; break;
    case 'm': unit = 60; break;
    case 'h': unit = 3600; break;
    case 'd': unit = 86'400; break;
    default: return std::nullopt;
  }
  const auto n = digits(s.substr(0, s.size() - 1));
  return n ? std::optional<int64_t>(*n * unit) : std::nullopt;
}

// Up to three colon-separated fields of digits; after a colon, the last may carry ".fraction"
// (dropped), as sacct prints; a bare number may not ("1.5" minutes would lose half a minute).
std::optional<std::vector<int64_t>> colon_fields(std::string_view s) {
  std::vector<int64_t> parts;
  while (true) {
    const size_t colon = s.find(':');
    std::string_view field = s.substr(0, colon);
    if (colon == std::string_view::npos && !parts.empty()) {
      const size_t dot = field.find('.');
      if (dot != std::string_view::npos && (dot + 1 == field.size() || digits(field.substr(dot + 1)))) {
        field = field.substr(0, dot);
      }
    }
    const auto v = digits(field);
    if (!v || parts.size() == 3) {
      return std::nullopt;
    }
    parts.push_back(*v);
    if (colon == std::string_view::npos) {
      return parts;
    }
    s.remove_prefix(colon + 1);
  }
}

// Slurm's forms in seconds: with days the fields are H[:M[:S]], without them M, M:S or H:M:S.
std::optional<int64_t> slurm_form(std::string_view s) {
  const size_t dash = s.find('-');
  std::optional<int64_t> days = 0;
  if (dash != std::string_view::npos) {
    days = digits(s.substr(0, dash));
    s.remove_prefix(dash + 1);
  }
  const auto f = colon_fields(s);
  if (!days || !f) {
    return std::nullopt;
  }
  constexpr std::array<int64_t, 3> kFromHours = {3600, 60, 1};
  constexpr std::array<int64_t, 3> kFromMinutes = {60, 1, 0};
  const bool from_hours = dash != std::string_view::npos || f->size() == 3;
  int64_t seconds = *days * 86'400;
  for (size_t i = 0; i < f->size(); ++i) {
    seconds += (*f)[i] * (from_hours ? kFromHours[i] : kFromMinutes[i]);
  }
  return seconds;
}

std::string two_digits(int64_t v) { return (v < 10 ? "0" : "") + std::to_string(v); }

}  // namespace

Result<Duration> parse_duration(std::string_view text) {
  const std::string_view s = trim(text);
  if (equals_ignoring_case(s, "UNLIMITED") || equals_ignoring_case(s, "INFINITE")) {
    return Duration::infinite();
  }
  std::optional<int64_t> seconds = with_unit(s);
  if (!seconds) {
    seconds = slurm_form(s);
  }
  if (!seconds) {
    return invalid_argument("`" + std::string(text.substr(0, 64)) + "`: " + std::string(kFormats));
  }
  if (*seconds > kMaxDurationSeconds) {
    return invalid_argument("`" + std::string(s) + "` is longer than 100000 days; use UNLIMITED for no limit");
  }
  return Duration::seconds(*seconds);
}

std::string format_slurm_duration(Duration d) {
  if (d.is_infinite()) {
    return "UNLIMITED";
  }
  const int64_t total = d.us() < 0 ? 0 : d.us() / 1'000'000;
  const int64_t days = total / 86'400;
  const int64_t hours = total % 86'400 / 3600;
  const int64_t mm_ss = total % 3600;
  const std::string tail = two_digits(mm_ss / 60) + ":" + two_digits(mm_ss % 60);
  if (days > 0) {
    return std::to_string(days) + "-" + two_digits(hours) + ":" + tail;
  }
  if (hours > 0) {
    return std::to_string(hours) + ":" + tail;
  }
  return std::to_string(mm_ss / 60) + ":" + two_digits(mm_ss % 60);
}

}  // namespace boreas
