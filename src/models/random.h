#pragma once
// Draws from the one seeded generator the driver hands in (ARCHITECTURE §3). The transforms are
// written out here rather than taken from <random> distributions, whose algorithms differ between
// standard libraries: the same seed must give the same run everywhere.

#include <cmath>
#include <cstdint>
#include <random>

#include "core/time.h"

namespace boreas::models {

using Rng = std::mt19937_64;

// Uniform in [0, 1) with 53 random bits.
inline double uniform01(Rng& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// Exponential with the given rate (> 0); the result is in the time unit of the rate
// (a rate per hour gives hours).
inline double exponential(Rng& rng, double rate) {
  return -std::log1p(-uniform01(rng)) / rate;
}

// Hours as a Duration, rounded to the microsecond; infinite stays infinite.
inline Duration hours_to_duration(double hours) {
  if (!std::isfinite(hours) || hours * 3.6e9 >= 9.2e18) {
    return Duration::infinite();
  }
  return Duration::micros(std::llround(hours * 3.6e9));
}

inline double duration_to_hours(Duration d) {
  return d.to_seconds() / 3600.0;
}

}  // namespace boreas::models
