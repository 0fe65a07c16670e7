#include "core/gpu_match.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

namespace boreas {
namespace {

constexpr std::array<std::string_view, 4> kVendorWords = {"nvidia", "tesla", "amd", "instinct"};

bool is_separator(char c) { return c == '-' || c == '_' || c == ' ' || c == '.' || c == '/'; }

std::vector<std::string> lower_tokens(std::string_view name) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : name) {
    if (is_separator(c)) {
      if (!cur.empty()) {
        out.push_back(std::move(cur));
      }
      cur.clear();
    } else {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  if (!cur.empty()) {
    out.push_back(std::move(cur));
  }
  return out;
}

// "80gb", "80g", "80gib" → 80.
std::optional<uint32_t> memory_token(std::string_view t) {
  size_t digits = 0;
  while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits])) != 0) {
    ++digits;
  }
  const std::string_view unit = t.substr(digits);
  if (digits == 0 || digits > 4 || (unit != "g" && unit != "gb" && unit != "gib")) {
    return std::nullopt;
  }
  return static_cast<uint32_t>(std::stoul(std::string(t.substr(0, digits))));
}

std::string form_token(std::string_view t) {
  if (t == "pcie") {
    return "pcie";
  }
  if (t == "sxm" || (t.size() == 4 && t.starts_with("sxm") && std::isdigit(static_cast<unsigned char>(t[3])) != 0)) {
    return "sxm";
  }
  return "";
}

bool is_memory_kind(std::string_view t) { return t.starts_with("hbm") || t.starts_with("gddr"); }

bool same_spelling(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

std::vector<std::string_view> spellings(const GpuType& t) {
  std::vector<std::string_view> out{t.name};
  out.insert(out.end(), t.aliases.begin(), t.aliases.end());
  return out;
}

bool has_key(const GpuType& t, const GpuNameKey& key) {
  const auto all = spellings(t);
  return std::any_of(all.begin(), all.end(), [&](std::string_view s) { return gpu_name_key(s) == key; });
}

// Same model, and neither the memory nor the form factor contradicts what the type states.
bool compatible(const GpuType& t, const GpuNameKey& key) {
  bool model = false;
  bool memory = key.memory_gb == 0 || key.memory_gb == static_cast<uint32_t>(std::lround(t.memory_gib));
  std::vector<std::string> forms;
  for (std::string_view s : spellings(t)) {
    const GpuNameKey k = gpu_name_key(s);
    model = model || k.model == key.model;
    memory = memory || (k.memory_gb != 0 && k.memory_gb == key.memory_gb);
    if (!k.form.empty()) {
      forms.push_back(k.form);
    }
  }
  const bool form = key.form.empty() || forms.empty() || std::find(forms.begin(), forms.end(), key.form) != forms.end();
  return model && memory && form;
}

template <typename Pred>
std::vector<GpuTypeId> types_where(const GpuCatalog& catalog, Pred pred) {
  std::vector<GpuTypeId> out;
  for (uint32_t i = 0; i < catalog.size(); ++i) {
    if (pred(catalog.at(GpuTypeId(i)))) {
      out.push_back(GpuTypeId(i));
    }
  }
  return out;
}

GpuTypeMatch from_candidates(std::vector<GpuTypeId> found) {
  GpuTypeMatch m;
  if (found.size() == 1) {
    m.id = found.front();
  } else {
    m.candidates = std::move(found);
  }
  return m;
}

}  // namespace

GpuNameKey gpu_name_key(std::string_view name) {
  GpuNameKey key;
  for (const std::string& t : lower_tokens(name)) {
    if (std::find(kVendorWords.begin(), kVendorWords.end(), t) != kVendorWords.end() || is_memory_kind(t)) {
      continue;
    }
    if (auto gb = memory_token(t)) {
      key.memory_gb = *gb;
    } else if (std::string form = form_token(t); !form.empty()) {
      key.form = std::move(form);
    } else {
      key.model += (key.model.empty() ? "" : "-") + t;
    }
  }
  return key;
}

std::optional<GpuTypeId> find_exact_gpu_type(const GpuCatalog& catalog, std::string_view name) {
  for (uint32_t i = 0; i < catalog.size(); ++i) {
    for (std::string_view s : spellings(catalog.at(GpuTypeId(i)))) {
      if (same_spelling(s, name)) {
        return GpuTypeId(i);
      }
    }
  }
  return std::nullopt;
}

GpuTypeMatch match_gpu_type(const GpuCatalog& catalog, std::string_view name) {
  if (auto id = find_exact_gpu_type(catalog, name)) {
    return GpuTypeMatch{id, {}};
  }
  const GpuNameKey key = gpu_name_key(name);
  if (key.model.empty()) {
    return {};
  }
  auto same_key = types_where(catalog, [&](const GpuType& t) { return has_key(t, key); });
  if (!same_key.empty()) {
    return from_candidates(std::move(same_key));
  }
  return from_candidates(types_where(catalog, [&](const GpuType& t) { return compatible(t, key); }));
}

}  // namespace boreas
