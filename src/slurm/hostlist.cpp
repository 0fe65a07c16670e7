#include "slurm/hostlist.h"

#include <charconv>
#include <cstdint>

namespace boreas::slurm {
namespace {

Status bad(std::string_view list, const std::string& why) {
  return invalid_argument("Slurm host list '" + std::string(list) + "': " + why);
}

Result<uint32_t> number(std::string_view text, std::string_view list) {
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return bad(list, "'" + std::string(text) + "' is not a number");
  }
  return v;
}

// Splits at commas outside brackets.
std::vector<std::string_view> top_level_items(std::string_view list) {
  std::vector<std::string_view> items;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    if (i == list.size() || (list[i] == ',' && depth == 0)) {
      if (i > start) {
        items.push_back(list.substr(start, i - start));
      }
      start = i + 1;
    } else if (list[i] == '[') {
      ++depth;
    } else if (list[i] == ']') {
      --depth;
    }
  }
  return items;
}

std::string padded(uint32_t v, size_t width) {
  std::string s = std::to_string(v);
  return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
}

// Far beyond any real cluster; keeps a hostile list ("a[0-99999]b[0-99999]") from eating memory.
constexpr size_t kMaxNames = 1'000'000;
constexpr size_t kMaxBytes = 32 << 20;

struct Budget {
  size_t names = 0;
  size_t bytes = 0;
};

Status add_name(std::string name, std::string_view list, Budget* budget, std::vector<std::string>* out) {
  budget->bytes += name.size() + 1;
  if (++budget->names > kMaxNames || budget->bytes > kMaxBytes) {
    return bad(list, "expands to more than " + std::to_string(kMaxNames) + " names or " +
                         std::to_string(kMaxBytes >> 20) + " MiB");
  }
  out->push_back(std::move(name));
  return Status::ok();
}

// "prefix[1-3,05]suffix" -> names.
Status expand_item(std::string_view item, std::string_view list, Budget* budget,
                   std::vector<std::string>* out) {
  const size_t open = item.find('[');
  if (open == std::string_view::npos) {
    return add_name(std::string(item), list, budget, out);
  }
  const size_t close = item.find(']', open);
  if (close == std::string_view::npos) {
    return bad(list, "'[' without ']'");
  }
  const std::string_view prefix = item.substr(0, open);
  std::vector<std::string> rest;  // the suffix's own expansion, once
  BOREAS_RETURN_IF_ERROR(expand_item(item.substr(close + 1), list, budget, &rest));
  for (std::string_view range : top_level_items(item.substr(open + 1, close - open - 1))) {
    const size_t dash = range.find('-');
    const std::string_view lo_text = range.substr(0, dash);
    auto lo = number(lo_text, list);
    auto hi = dash == std::string_view::npos ? lo : number(range.substr(dash + 1), list);
    if (!lo.is_ok() || !hi.is_ok()) {
      return lo.is_ok() ? hi.status() : lo.status();
    }
    if (*hi < *lo || *hi - *lo > 100000) {
      return bad(list, "range '" + std::string(range) + "' is empty or too long");
    }
    for (uint32_t v = *lo; v <= *hi; ++v) {
      for (const auto& r : rest) {
        BOREAS_RETURN_IF_ERROR(
            add_name(std::string(prefix) + padded(v, lo_text.size()) + r, list, budget, out));
      }
    }
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<std::string>> expand_hostlist(std::string_view list) {
  std::vector<std::string> names;
  Budget budget;
  for (std::string_view item : top_level_items(list)) {
    BOREAS_RETURN_IF_ERROR(expand_item(item, list, &budget, &names));
  }
  return names;
}

std::string join_hostlist(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) {
    s += (s.empty() ? "" : ",") + n;
  }
  return s;
}

Result<std::vector<uint32_t>> expand_ranges(std::string_view ranges) {
  std::vector<uint32_t> out;
  for (std::string_view range : top_level_items(ranges)) {
    const size_t dash = range.find('-');
    auto lo = number(range.substr(0, dash), ranges);
    auto hi = dash == std::string_view::npos ? lo : number(range.substr(dash + 1), ranges);
    if (!lo.is_ok() || !hi.is_ok()) {
      return lo.is_ok() ? hi.status() : lo.status();
    }
    if (*hi < *lo || *hi - *lo > 4096 || out.size() > 65536) {
      return invalid_argument("Slurm index range '" + std::string(range) + "' is empty or too long");
    }
    for (uint32_t v = *lo; v <= *hi; ++v) {
      out.push_back(v);
    }
  }
  return out;
}

}  // namespace boreas::slurm
