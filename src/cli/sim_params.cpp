#include "cli/sim_params.h"

#include "config/suggest.h"
#include "models/params.h"

namespace boreas::cli {
namespace {

// An edit-distance typo, else the first parameter whose name contains the word (a shortened name
// such as thermal.inlet_rise).
std::string suggestion(const std::string& word, const std::vector<std::string>& names) {
  std::string hint = config::did_you_mean(word, names);
  if (!hint.empty()) {
    return hint;
  }
  for (const std::string& n : names) {
    if (n.find(word) != std::string::npos) {
      return "did you mean '" + n + "'?";
    }
  }
  return "";
}

}  // namespace

Status apply_param_flag(const std::string& list, sim::PhysicsOptions& options) {
  Result<std::vector<models::ParamOverride>> overrides = models::parse_param_overrides(list);
  if (!overrides.is_ok()) {
    return overrides.status();
  }
  const std::vector<std::string> names = models::param_names();
  for (const models::ParamOverride& o : *overrides) {
    if (models::find_param(o.name) == nullptr) {
      const std::string hint = suggestion(o.name, names);
      return invalid_argument("--param: unknown parameter '" + o.name + "'" +
                              (hint.empty() ? "" : "; " + hint) +
                              "; `boreas models check` lists every parameter");
    }
  }
  return sim::apply_param_overrides(options, *overrides);
}

}  // namespace boreas::cli
