#include "cli/experiment_spec.h"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "config/spec_reader.h"

namespace boreas::cli {

namespace {

// Set by the runner for each run; an experiment may not set them itself.
constexpr std::string_view kRunnerOwned[] = {"seed", "load", "out", "report", "schedule-trace"};

Status check_option_key(const config::SpecContext& ctx, const YAML::Node& key_node, const std::string& key) {
  for (std::string_view owned : kRunnerOwned) {
    if (key == owned) {
      return ctx.error(key_node, "'" + key + "' is set by the runner for every run",
                       "use the experiment's `seeds:` and `loads:` lists instead");
    }
  }
  if (key.empty() || key.front() == '-') {
    return ctx.error(key_node, "option '" + key + "' must be a `boreas sim` option name without dashes",
                     "e.g. placement: cool");
  }
  return Status::ok();
}

Result<std::string> option_value(const config::SpecContext& ctx, const YAML::Node& v) {
  if (v.IsScalar()) {
    return v.Scalar();
  }
  if (v.IsSequence()) {
    std::string joined;
    for (const auto& item : v) {
      if (!item.IsScalar()) {
        return ctx.error(item, "a list option holds plain values", "e.g. las-thresholds: [3250, 7200]");
      }
      joined += (joined.empty() ? "" : ",") + item.Scalar();
    }
    return joined;
  }
  return ctx.error(v, "an option's value is a plain value or a list", "e.g. placement: cool");
}

// The options of a mapping, minus `skip` keys (an arm's name).
Result<std::vector<SimOption>> read_options(const config::SpecContext& ctx, const YAML::Node& map,
                                            std::string_view skip) {
  std::vector<SimOption> out;
  if (!map.IsMap()) {
    return ctx.error(map, "expected a mapping of `boreas sim` options", "e.g. {policy: fifo, placement: pack}");
  }
  for (const auto& kv : map) {
    const std::string key = kv.first.Scalar();
    if (key == skip) {
      continue;
    }
    BOREAS_RETURN_IF_ERROR(check_option_key(ctx, kv.first, key));
    auto value = option_value(ctx, kv.second);
    if (!value.is_ok()) {
      return value.status();
    }
    out.emplace_back(key, *value);
  }
  return out;
}

Result<std::vector<std::optional<double>>> read_loads(const config::SpecContext& ctx, const YAML::Node& n) {
  std::vector<std::optional<double>> loads;
  if (!n) {
    return std::vector<std::optional<double>>{std::nullopt};
  }
  const YAML::Node list = n.IsSequence() ? n : YAML::Node(std::vector<YAML::Node>{n});  // `loads: 0.7` too
  for (const auto& item : list) {
    double v = 0;
    if (!YAML::convert<double>::decode(item, v) || !(v > 0)) {
      return ctx.error(item, "a load is a number > 0 (offered load on the cluster)", "e.g. loads: [0.5, 0.7, 0.9]");
    }
    loads.emplace_back(v);
  }
  if (loads.empty()) {
    return ctx.error(n, "loads: give at least one load, or leave the key out", "e.g. loads: [0.7]");
  }
  return loads;
}

bool safe_name(const std::string& name) {
  return !name.empty() && name.front() != '.' && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
  });
}

Result<std::vector<ExperimentArm>> read_arms(const config::SpecContext& ctx, const YAML::Node& n) {
  if (!n || !n.IsSequence() || n.size() == 0) {
    return ctx.error(n, "arms: expected a list of arms", "e.g. arms: [{name: baseline, placement: pack}, ...]");
  }
  std::vector<ExperimentArm> arms;
  std::set<std::string> names;
  for (const auto& item : n) {
    if (!item.IsMap() || !item["name"] || !item["name"].IsScalar()) {
      return ctx.error(item, "each arm is a mapping with a `name`", "e.g. {name: cool, placement: cool}");
    }
    ExperimentArm arm{item["name"].Scalar(), {}, ctx.where(item)};
    if (!safe_name(arm.name)) {  // it names a directory under --out: no "..", no "/"
      return ctx.error(item["name"], "arm name '" + arm.name + "' is not a plain name",
                       "use letters, digits, '-', '_' and '.', not starting with '.'");
    }
    if (!names.insert(arm.name).second) {
      return ctx.error(item["name"], "arm name '" + arm.name + "' is used twice", "give each arm its own name");
    }
    auto options = read_options(ctx, item, "name");
    if (!options.is_ok()) {
      return options.status();
    }
    arm.options = std::move(*options);
    arms.push_back(std::move(arm));
  }
  if (!names.contains("baseline")) {
    return ctx.error(n, "no arm is named `baseline`", "name the arm the others are compared with `baseline`");
  }
  return arms;
}

Status read_header(const config::SpecContext& ctx, const YAML::Node& root, ExperimentSpec& spec) {
  config::MapReader r(ctx, root, "experiment");
  BOREAS_RETURN_IF_ERROR(r.check({"name", "question", "options", "loads", "seeds", "metrics", "arms"}));
  BOREAS_RETURN_IF_ERROR(r.text("name", &spec.name, true));
  BOREAS_RETURN_IF_ERROR(r.text("question", &spec.question, true));
  BOREAS_RETURN_IF_ERROR(r.text_list("metrics", &spec.metrics));
  std::string seeds = "1";
  if (r.has("seeds")) {
    const YAML::Node s = r.get("seeds");
    auto text = option_value(ctx, s);
    if (!text.is_ok()) {
      return text.status();
    }
    seeds = *text;
  }
  auto parsed = parse_seed_list(seeds);
  if (!parsed.is_ok()) {
    return ctx.error(r.get("seeds"), parsed.status().message(), "e.g. seeds: 1-10");
  }
  spec.seeds = std::move(*parsed);
  return Status::ok();
}

Result<ExperimentSpec> parse_root(const config::SpecContext& ctx, const YAML::Node& root) {
  ExperimentSpec spec;
  spec.file = ctx.file();
  if (!root.IsMap()) {
    return ctx.error(root, "an experiment file is a mapping", "see docs/experiments.md");
  }
  BOREAS_RETURN_IF_ERROR(read_header(ctx, root, spec));
  if (root["options"]) {
    auto options = read_options(ctx, root["options"], "");
    if (!options.is_ok()) {
      return options.status();
    }
    spec.options = std::move(*options);
  }
  auto loads = read_loads(ctx, root["loads"]);
  if (!loads.is_ok()) {
    return loads.status();
  }
  spec.loads = std::move(*loads);
  auto arms = read_arms(ctx, root["arms"]);
  if (!arms.is_ok()) {
    return arms.status();
  }
  spec.arms = std::move(*arms);
  return spec;
}

}  // namespace

Result<std::vector<uint64_t>> parse_seed_list(const std::string& text) {
  std::vector<uint64_t> seeds;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    const auto dash = item.find('-');
    try {
      size_t used = 0;
      const uint64_t lo = std::stoull(item.substr(0, dash), &used);
      const uint64_t hi = dash == std::string::npos ? lo : std::stoull(item.substr(dash + 1));
      if (hi < lo || hi - lo > 10000) {
        return invalid_argument("seeds: bad range '" + item + "'");
      }
      for (uint64_t s = lo; s <= hi; ++s) {
        seeds.push_back(s);
      }
    } catch (const std::exception&) {
      return invalid_argument("seeds: '" + item + "' is not a seed or a range LO-HI");
    }
  }
  if (seeds.empty()) {
    return invalid_argument("seeds: give at least one seed");
  }
  std::set<uint64_t> unique(seeds.begin(), seeds.end());
  if (unique.size() != seeds.size()) {
    return invalid_argument("seeds: a seed is listed twice");
  }
  return seeds;
}

Result<ExperimentSpec> parse_experiment(const std::string& text, const std::string& file) {
  auto root = config::parse_yaml(text, file);
  if (!root.is_ok()) {
    return root.status();
  }
  const config::SpecContext ctx(file, nullptr);
  try {
    return parse_root(ctx, *root);
  } catch (const YAML::Exception& e) {
    return config::yaml_exception_status(file, e, "bad experiment file");
  }
}

Result<ExperimentSpec> load_experiment_file(const std::string& path) {
  auto text = config::read_text_file(path);
  if (!text.is_ok()) {
    return text.status();
  }
  return parse_experiment(*text, path);
}

std::vector<std::string> run_arguments(const ExperimentSpec& spec, const ExperimentArm& arm,
                                       std::optional<double> load, uint64_t seed) {
  std::vector<SimOption> merged = spec.options;
  for (const SimOption& o : arm.options) {
    std::erase_if(merged, [&](const SimOption& m) { return m.first == o.first; });
    merged.push_back(o);
  }
  std::vector<std::string> args;
  for (const auto& [key, value] : merged) {
    args.push_back("--" + key + "=" + value);
  }
  args.push_back(fmt::format("--seed={}", seed));
  if (load) {
    args.push_back(fmt::format("--load={}", *load));
  }
  return args;
}

}  // namespace boreas::cli
