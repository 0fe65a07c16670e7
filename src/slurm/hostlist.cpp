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

// "prefix[1-3,05]suffix" -> names.
Status expand_item(std::string_view item, std::string_view list, std::vector<std::string>* out) {
  const size_t open = item.find('[');
  if (open == std::string_view::npos) {
    out->emplace_back(item);
    return Status::ok();
  }
  const size_t close = item.find(']', open);
  if (close == std::string_view::npos) {
    return bad(list, "'[' without ']'");
  }
  const std::string_view prefix = item.substr(0, open);
  const std::string suffix(item.substr(close + 1));
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
      std::vector<std::string> rest;
      BOREAS_RETURN_IF_ERROR(expand_item(suffix, list, &rest));
      for (const auto& r : rest.empty() ? std::vector<std::string>{""} : rest) {
        out->push_back(std::string(prefix) + padded(v, lo_text.size()) + r);
      }
    }
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<std::string>> expand_hostlist(std::string_view list) {
  std::vector<std::string> names;
  for (std::string_view item : top_level_items(list)) {
    BOREAS_RETURN_IF_ERROR(expand_item(item, list, &names));
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
    if (*hi < *lo || *hi - *lo > 4096) {
      return invalid_argument("Slurm index range '" + std::string(range) + "' is empty or too long");
    }
    for (uint32_t v = *lo; v <= *hi; ++v) {
      out.push_back(v);
    }
  }
  return out;
}

}  // namespace boreas::slurm
