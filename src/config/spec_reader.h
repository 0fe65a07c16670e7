#pragma once
// Reading YAML specs with locations: every failure becomes "file:line:col: what; hint".
// yaml-cpp throws; only this file's functions touch yaml-cpp calls that can throw, and they catch.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/cluster_spec.h"
#include "core/status.h"

namespace boreas::config {

// Where a spec comes from, and where its warnings go.
class SpecContext {
 public:
  SpecContext(std::string file, std::vector<Warning>* warnings)
      : file_(std::move(file)), warnings_(warnings) {}

  const std::string& file() const { return file_; }
  // "file:line:col" of a node (1-based), or just "file" when the node has no mark.
  std::string where(const YAML::Node& node) const;
  Status error(const YAML::Node& node, std::string_view what, std::string_view hint) const;
  void warn(const YAML::Node& node, std::string_view what, std::string_view hint) const;

 private:
  std::string file_;
  std::vector<Warning>* warnings_;
};

// Parses YAML text; syntax errors carry yaml-cpp's mark.
Result<YAML::Node> parse_yaml(const std::string& text, const std::string& file);
Result<std::string> read_text_file(const std::string& path);
// A yaml-cpp exception caught at a loader's boundary, located by its mark; `kind` starts the message.
Status yaml_exception_status(const std::string& file, const YAML::Exception& e,
                             std::string_view kind = "unreadable YAML");

// Renders a scalar for messages, e.g. 'sixteen'; "a mapping" / "a list" otherwise.
std::string describe(const YAML::Node& node);

// A mapping in a spec: checks its keys and reads typed fields with located errors.
class MapReader {
 public:
  // `what` names the mapping in messages, e.g. "group 'h100'" or "zone".
  MapReader(const SpecContext& ctx, YAML::Node node, std::string what);

  // Fails unless the node is a mapping whose keys are all in `allowed` (with "did you mean").
  Status check(std::initializer_list<std::string_view> allowed) const;

  bool has(std::string_view key) const;
  YAML::Node get(std::string_view key) const;
  const YAML::Node& node() const { return node_; }
  const std::string& what() const { return what_; }
  const SpecContext& ctx() const { return ctx_; }
  // A nested mapping, named `what` in messages.
  MapReader child(std::string_view key, std::string what) const { return {ctx_, get(key), std::move(what)}; }

  // Absent optional fields leave *out unchanged.
  Status text(std::string_view key, std::string* out, bool required = false) const;
  Status number(std::string_view key, double* out, bool required = false) const;
  Status integer(std::string_view key, int64_t* out, bool required = false) const;
  Status boolean(std::string_view key, bool* out) const;
  Status text_list(std::string_view key, std::vector<std::string>* out) const;
  // Numbers that must be > 0 (or >= 0 when `allow_zero`).
  Status positive(std::string_view key, double* out, bool required = false, bool allow_zero = false) const;
  Status count(std::string_view key, int64_t* out, bool required = false, bool allow_zero = false) const;
  Status optional_number(std::string_view key, std::optional<double>* out) const;

 private:
  Status missing(std::string_view key) const;
  Status wrong_type(std::string_view key, const YAML::Node& v, std::string_view expected,
                    std::string_view example) const;

  const SpecContext& ctx_;
  YAML::Node node_;
  std::string what_;
};

// Fails unless `node` is a sequence (a missing node is fine when !required).
Status require_list(const SpecContext& ctx, const YAML::Node& node, std::string_view what);

}  // namespace boreas::config
