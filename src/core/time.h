#pragma once
// Simulated and wall time as integer microseconds. Never double seconds (ARCHITECTURE §3).

#include <compare>
#include <cstdint>
#include <limits>
#include <string>

namespace boreas {

// A span of time in whole microseconds.
class Duration {
 public:
  constexpr Duration() = default;
  static constexpr Duration micros(int64_t us) { return Duration(us); }
  static constexpr Duration millis(int64_t ms) { return Duration(ms * 1000); }
  static constexpr Duration seconds(int64_t s) { return Duration(s * 1'000'000); }
  static constexpr Duration minutes(int64_t m) { return seconds(m * 60); }
  static constexpr Duration hours(int64_t h) { return seconds(h * 3600); }
  // Rounds to the nearest microsecond; for values read from text (e.g. "12.5" seconds).
  static Duration from_seconds(double s);
  static constexpr Duration zero() { return Duration(0); }
  static constexpr Duration infinite() { return Duration(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t us() const { return us_; }
  // For reporting only; arithmetic stays in microseconds.
  constexpr double to_seconds() const { return static_cast<double>(us_) / 1e6; }
  constexpr bool is_infinite() const { return us_ == std::numeric_limits<int64_t>::max(); }

  constexpr Duration operator+(Duration o) const { return Duration(us_ + o.us_); }
  constexpr Duration operator-(Duration o) const { return Duration(us_ - o.us_); }
  constexpr Duration operator*(int64_t k) const { return Duration(us_ * k); }
  constexpr Duration operator/(int64_t k) const { return Duration(us_ / k); }
  constexpr Duration& operator+=(Duration o) { us_ += o.us_; return *this; }
  constexpr Duration& operator-=(Duration o) { us_ -= o.us_; return *this; }
  constexpr auto operator<=>(const Duration&) const = default;

 private:
  constexpr explicit Duration(int64_t us) : us_(us) {}
  int64_t us_ = 0;
};

// A point in time: microseconds since an epoch chosen by the driver (trace start, Unix epoch).
class Time {
 public:
  constexpr Time() = default;
  static constexpr Time from_micros(int64_t us) { return Time(us); }
  static constexpr Time from_seconds(int64_t s) { return Time(s * 1'000'000); }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time never() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t us() const { return us_; }
  constexpr double to_seconds() const { return static_cast<double>(us_) / 1e6; }
  constexpr bool is_never() const { return us_ == std::numeric_limits<int64_t>::max(); }

  constexpr Time operator+(Duration d) const { return Time(us_ + d.us()); }
  constexpr Time operator-(Duration d) const { return Time(us_ - d.us()); }
  constexpr Duration operator-(Time o) const { return Duration::micros(us_ - o.us_); }
  constexpr Time& operator+=(Duration d) { us_ += d.us(); return *this; }
  constexpr auto operator<=>(const Time&) const = default;

 private:
  constexpr explicit Time(int64_t us) : us_(us) {}
  int64_t us_ = 0;
};

// "1h02m03s", "4.5s", "250ms", "0s" — short human form for logs and tables.
std::string to_string(Duration d);
// Seconds since the epoch with microsecond precision, e.g. "3600.000001".
std::string to_string(Time t);

}  // namespace boreas
