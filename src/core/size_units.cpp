#include "core/size_units.h"

#include <string>

namespace boreas {
namespace {

constexpr int64_t kMaxSizeKib = kMaxSizeMib * 1024;
constexpr size_t kMaxDecimals = 9;

std::string quoted(std::string_view text) { return "`" + std::string(text) + "`"; }

// The leading digits of TEXT (at most 18, so the value fits) as a number; TEXT loses them.
bool take_digits(std::string_view& text, int64_t& value, size_t& count) {
  value = 0;
  count = 0;
  while (count < text.size() && text[count] >= '0' && text[count] <= '9') {
    if (count == 18) {
      return false;
    }
    value = value * 10 + (text[count] - '0');
    ++count;
  }
  text.remove_prefix(count);
  return true;
}

// KiB per unit: K, M, G, T in any case, then nothing, "B" or "iB"; "" is MiB. 0 when unknown.
int64_t unit_kib(std::string_view unit) {
  if (unit.empty()) {
    return 1024;
  }
  const std::string_view rest = unit.substr(1);
  if (!rest.empty() && rest != "B" && rest != "iB") {
    return 0;
  }
  switch (unit[0]) {
    case 'K': case 'k': return 1;
    case 'M': case 'm': return 1024;
    case 'G': case 'g': return int64_t{1024} * 1024;
    case 'T': case 't': return int64_t{1024} * 1024 * 1024;
    default: return 0;
  }
}

// The fraction after the decimal point, in KiB of a unit of PER_UNIT KiB, rounded up.
int64_t fraction_kib(int64_t digits_value, size_t digits, int64_t per_unit) {
  int64_t scale = 1;
  for (size_t i = 0; i < digits; ++i) {
    scale *= 10;
  }
  // digits_value < 10^9 and per_unit <= 2^30: the product fits in 63 bits.
  return (digits_value * per_unit + scale - 1) / scale;
}

}  // namespace

Result<int64_t> parse_size_mib(std::string_view text, SizeNumber number) {
  const std::string_view all = text;
  const char* kind = number == SizeNumber::kWhole ? "a whole number" : "a number";
  if (!text.empty() && text[0] == '-') {
    return invalid_argument(quoted(all) + " is negative; give a size of 0 or more");
  }
  int64_t whole = 0;
  size_t whole_digits = 0;
  if (!take_digits(text, whole, whole_digits)) {
    return invalid_argument(quoted(all) + " is too large (at most 1 EiB)");
  }
  if (whole_digits == 0) {
    return invalid_argument(quoted(all) + " does not start with " + kind);
  }
  int64_t fraction = 0;
  size_t decimals = 0;
  if (number == SizeNumber::kDecimal && !text.empty() && text[0] == '.') {
    text.remove_prefix(1);
    if (!take_digits(text, fraction, decimals) || decimals == 0 || decimals > kMaxDecimals) {
      return invalid_argument(quoted(all) + ": give 1 to 9 digits after the decimal point");
    }
  }
  const int64_t per_unit = unit_kib(text);
  if (per_unit == 0) {
    return invalid_argument("unknown unit " + quoted(text) + " in " + quoted(all) +
                            "; units are K, M, G and T (MiB when none)");
  }
  if (whole > kMaxSizeKib / per_unit) {
    return invalid_argument(quoted(all) + " is too large (at most 1 EiB)");
  }
  const int64_t kib = whole * per_unit + fraction_kib(fraction, decimals, per_unit);
  const int64_t mib = (kib + 1023) / 1024;
  if (mib > kMaxSizeMib) {
    return invalid_argument(quoted(all) + " is too large (at most 1 EiB)");
  }
  return mib;
}

}  // namespace boreas
