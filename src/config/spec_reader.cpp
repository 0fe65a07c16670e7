#include "config/spec_reader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/suggest.h"

namespace boreas::config {

std::string SpecContext::where(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || mark.line < 0) {
    return file_ + ":1:1";  // only the root of an empty document has no mark
  }
  return file_ + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

Status SpecContext::error(const YAML::Node& node, std::string_view what, std::string_view hint) const {
  return invalid_argument(where(node) + ": " + std::string(what) + "; " + std::string(hint));
}

void SpecContext::warn(const YAML::Node& node, std::string_view what, std::string_view hint) const {
  if (warnings_ != nullptr) {
    warnings_->push_back({where(node) + ": " + std::string(what) + "; " + std::string(hint)});
  }
}

Status yaml_exception_status(const std::string& file, const YAML::Exception& e, std::string_view kind) {
  return invalid_argument(file + ":" + std::to_string(e.mark.line + 1) + ":" +
                          std::to_string(e.mark.column + 1) + ": " + std::string(kind) + ": " + e.msg +
                          "; fix the YAML at this position");
}

Result<YAML::Node> parse_yaml(const std::string& text, const std::string& file) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return yaml_exception_status(file, e, "YAML syntax error");
  }
}

Result<std::string> read_text_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return io_error(path + ": cannot read: it is a directory; pass a YAML file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return io_error(path + ": cannot read: " + std::strerror(errno) + "; check the path and permissions");
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) {
    return "an empty value";
  }
  if (node.IsMap()) {
    return "a mapping";
  }
  if (node.IsSequence()) {
    return "a list";
  }
  return "'" + node.Scalar() + "'";
}

MapReader::MapReader(const SpecContext& ctx, YAML::Node node, std::string what)
    : ctx_(ctx), node_(std::move(node)), what_(std::move(what)) {}

Status MapReader::check(std::initializer_list<std::string_view> allowed) const {
  if (!node_.IsMap()) {
    return ctx_.error(node_, what_ + " must be a mapping, got " + describe(node_),
                      "write it as 'key: value' lines or {key: value, ...}");
  }
  const std::vector<std::string> names(allowed.begin(), allowed.end());
  std::vector<std::string> seen;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) {
      return ctx_.error(key, "a key in " + what_ + " is not a plain name", "keys are plain words");
    }
    if (std::find(seen.begin(), seen.end(), key.Scalar()) != seen.end()) {  // yaml-cpp keeps both silently
      return ctx_.error(key, "duplicate key '" + key.Scalar() + "' in " + what_, "keep only one");
    }
    seen.push_back(key.Scalar());
    if (std::find(names.begin(), names.end(), key.Scalar()) != names.end()) {
      continue;
    }
    std::string hint = did_you_mean(key.Scalar(), names);
    return ctx_.error(key, "unknown key '" + key.Scalar() + "' in " + what_,
                      hint.empty() ? "allowed keys: " + join(names) : hint);
  }
  return Status::ok();
}

bool MapReader::has(std::string_view key) const {
  return get(key).IsDefined();
}

YAML::Node MapReader::get(std::string_view key) const {
  if (!node_.IsMap()) {
    return YAML::Node(YAML::NodeType::Undefined);
  }
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) {
      return it->second;
    }
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

Status MapReader::missing(std::string_view key) const {
  return ctx_.error(node_, what_ + " is missing required key '" + std::string(key) + "'",
                    "add '" + std::string(key) + ": ...'");
}

Status MapReader::wrong_type(std::string_view key, const YAML::Node& v, std::string_view expected,
                             std::string_view example) const {
  return ctx_.error(
      v,
      "'" + std::string(key) + "' in " + what_ + " must be " + std::string(expected) + ", got " + describe(v),
      "write " + std::string(example));
}

Status MapReader::text(std::string_view key, std::string* out, bool required) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) {
    return required ? missing(key) : Status::ok();
  }
  if (!v.IsScalar() || v.Scalar().empty()) {
    return wrong_type(key, v, "a non-empty string", "a name such as 'a1'");
  }
  *out = v.Scalar();
  return Status::ok();
}

Status MapReader::number(std::string_view key, double* out, bool required) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) {
    return required ? missing(key) : Status::ok();
  }
  double d = 0;
  if (!v.IsScalar() || !YAML::convert<double>::decode(v, d) || !std::isfinite(d)) {
    return wrong_type(key, v, "a number", "a number such as 1.5");
  }
  *out = d;
  return Status::ok();
}

Status MapReader::integer(std::string_view key, int64_t* out, bool required) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) {
    return required ? missing(key) : Status::ok();
  }
  int64_t i = 0;
  if (!v.IsScalar() || !YAML::convert<int64_t>::decode(v, i)) {
    return wrong_type(key, v, "an integer", "a whole number such as 8");
  }
  *out = i;
  return Status::ok();
}

Status MapReader::boolean(std::string_view key, bool* out) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) {
    return Status::ok();
  }
  bool b = false;
  if (!v.IsScalar() || !YAML::convert<bool>::decode(v, b)) {
    return wrong_type(key, v, "true or false", "true or false");
  }
  *out = b;
  return Status::ok();
}

Status MapReader::text_list(std::string_view key, std::vector<std::string>* out) const {
  const YAML::Node v = get(key);
  if (!v.IsDefined()) {
    return Status::ok();
  }
  if (!v.IsSequence()) {
    return wrong_type(key, v, "a list of names", "[a, b]");
  }
  out->clear();
  for (const auto& item : v) {
    if (!item.IsScalar() || item.Scalar().empty()) {
      return wrong_type(key, item, "a list of names", "[a, b]");
    }
    out->push_back(item.Scalar());
  }
  return Status::ok();
}

Status MapReader::positive(std::string_view key, double* out, bool required, bool allow_zero) const {
  double d = *out;
  BOREAS_RETURN_IF_ERROR(number(key, &d, required));
  if (has(key) && (d < 0 || (!allow_zero && d == 0))) {
    return ctx_.error(get(key),
                      "'" + std::string(key) + "' in " + what_ + " must be " +
                          (allow_zero ? "zero or more" : "greater than zero") + ", got " + describe(get(key)),
                      allow_zero ? "use 0 or a positive number" : "use a positive number");
  }
  *out = d;
  return Status::ok();
}

Status MapReader::count(std::string_view key, int64_t* out, bool required, bool allow_zero) const {
  int64_t i = *out;
  BOREAS_RETURN_IF_ERROR(integer(key, &i, required));
  if (has(key) && (i < 0 || (!allow_zero && i == 0))) {
    return ctx_.error(get(key),
                      "'" + std::string(key) + "' in " + what_ + " must be " +
                          (allow_zero ? "zero or more" : "at least 1") + ", got " + describe(get(key)),
                      allow_zero ? "use 0 or a positive whole number" : "use a whole number of 1 or more");
  }
  *out = i;
  return Status::ok();
}

Status MapReader::optional_number(std::string_view key, std::optional<double>* out) const {
  if (!has(key)) {
    return Status::ok();
  }
  double d = 0;
  BOREAS_RETURN_IF_ERROR(positive(key, &d, false, true));
  *out = d;
  return Status::ok();
}

Status require_list(const SpecContext& ctx, const YAML::Node& node, std::string_view what) {
  if (!node.IsDefined() || node.IsSequence()) {
    return Status::ok();
  }
  return ctx.error(node, "'" + std::string(what) + "' must be a list, got " + describe(node),
                   "write one '- ' item per line or [a, b]");
}

}  // namespace boreas::config
