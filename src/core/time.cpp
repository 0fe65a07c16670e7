#include "core/time.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace boreas {

Duration Duration::from_seconds(double s) { return Duration::micros(std::llround(s * 1e6)); }

std::string to_string(Duration d) {
  if (d.is_infinite()) {
    return "inf";
  }
  int64_t us = d.us();
  std::string sign = us < 0 ? "-" : "";
  us = std::llabs(us);
  char buf[64];
  if (us < 1000) {
    std::snprintf(buf, sizeof buf, "%lldus", static_cast<long long>(us));
  } else if (us < 1'000'000) {
    std::snprintf(buf, sizeof buf, "%lldms", static_cast<long long>(us / 1000));
  } else if (us < 60'000'000) {
    std::snprintf(buf, sizeof buf, "%.1fs", static_cast<double>(us) / 1e6);
  } else {
    const long long total_s = us / 1'000'000;
    const long long h = total_s / 3600;
    const long long m = (total_s % 3600) / 60;
    const long long s = total_s % 60;
    if (h > 0) {
      std::snprintf(buf, sizeof buf, "%lldh%02lldm%02llds", h, m, s);
    } else {
      std::snprintf(buf, sizeof buf, "%lldm%02llds", m, s);
    }
  }
  return sign + buf;
}

std::string to_string(Time t) {
  if (t.is_never()) {
    return "never";
  }
  const int64_t us = t.us();
  const char* sign = us < 0 ? "-" : "";
  const long long a = std::llabs(us);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%lld.%06lld", sign, a / 1'000'000, a % 1'000'000);
  return buf;
}

}  // namespace boreas
