#include "slurm/gres.h"

#include <charconv>

#include "slurm/hostlist.h"

namespace boreas::slurm {
namespace {

Status bad(std::string_view text, const std::string& why) {
  return invalid_argument("Slurm GRES '" + std::string(text) + "': " + why);
}

// Splits at commas outside parentheses.
std::vector<std::string_view> entries(std::string_view text) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      if (i > start) {
        out.push_back(text.substr(start, i - start));
      }
      start = i + 1;
    } else if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')') {
      --depth;
    }
  }
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// "(IDX:0-1)" or "(S:0-1)" after the count: only IDX is kept.
Status parse_annotation(std::string_view note, std::string_view whole, Gres* g) {
  if (note.size() < 2 || note.back() != ')') {
    return bad(whole, "'(' without ')'");
  }
  const std::string_view inner = note.substr(1, note.size() - 2);
  if (inner.rfind("IDX:", 0) != 0 || inner == "IDX:N/A") {
    return Status::ok();
  }
  auto idx = expand_ranges(inner.substr(4));
  if (!idx.is_ok()) {
    return bad(whole, idx.status().message());
  }
  g->indexes = std::move(*idx);
  return Status::ok();
}

Result<Gres> parse_entry(std::string_view entry, std::string_view whole) {
  const size_t paren = entry.find('(');
  const std::string_view head = entry.substr(0, paren);
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t colon = head.find(':', start);
    parts.push_back(head.substr(start, colon - start));
    if (colon == std::string_view::npos) {
      break;
    }
    start = colon + 1;
  }
  Gres g;
  g.name = parts[0];
  if (g.name.empty() || parts.size() > 3) {
    return bad(whole, "'" + std::string(entry) + "' is not NAME[:TYPE][:COUNT]");
  }
  if (parts.size() == 1) {
    g.count = 1;
  } else if (all_digits(parts.back())) {
    std::from_chars(parts.back().data(), parts.back().data() + parts.back().size(), g.count);
    g.type = parts.size() == 3 ? std::string(parts[1]) : "";
  } else if (parts.size() == 2) {
    g.type = parts[1];
    g.count = 1;
  } else {
    return bad(whole, "count '" + std::string(parts.back()) + "' is not a number");
  }
  if (paren != std::string_view::npos) {
    BOREAS_RETURN_IF_ERROR(parse_annotation(entry.substr(paren), whole, &g));
  }
  return g;
}

}  // namespace

Result<std::vector<Gres>> parse_gres_list(std::string_view text) {
  std::vector<Gres> out;
  if (text == "(null)") {
    return out;
  }
  for (std::string_view e : entries(text)) {
    auto g = parse_entry(e, text);
    if (!g.is_ok()) {
      return g.status();
    }
    out.push_back(std::move(*g));
  }
  return out;
}

uint32_t gpu_count(const std::vector<Gres>& gres) {
  uint32_t n = 0;
  for (const auto& g : gres) {
    n += g.name == "gpu" ? g.count : 0;
  }
  return n;
}

}  // namespace boreas::slurm
