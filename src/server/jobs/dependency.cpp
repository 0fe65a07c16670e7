#include "server/jobs/dependency.h"

#include <array>
#include <utility>

namespace boreas::server {
namespace {

constexpr std::array<std::pair<const char*, AfterKind>, 3> kKinds = {
    {{"afterok", AfterKind::kOk}, {"afterany", AfterKind::kAny}, {"afternotok", AfterKind::kNotOk}}};

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  size_t from = 0;
  while (true) {
    const size_t at = text.find(sep, from);
    out.push_back(text.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) {
      return out;
    }
    from = at + 1;
  }
}

Result<Dependency> parse_item(const std::string& item) {
  const std::vector<std::string> parts = split(item, ':');
  Dependency d;
  bool known = false;
  for (const auto& [name, kind] : kKinds) {
    if (parts[0] == name) {
      d.kind = kind;
      known = true;
    }
  }
  for (size_t i = 1; known && i < parts.size(); ++i) {
    const std::string& id = parts[i];
    const bool digits = !id.empty() && id.size() <= 9 && id.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoul(id) == 0) {
      known = false;
      break;
    }
    d.jobs.emplace_back(static_cast<uint32_t>(std::stoul(id)));
  }
  if (!known || d.jobs.empty()) {
    return invalid_argument("`" + item + "`: expected afterok:ID[:ID...], afterany:ID[:ID...] or "
                            "afternotok:ID[:ID...], several joined with ','");
  }
  return d;
}

// What one named job's state says about one item.
DependencyState one(AfterKind kind, std::optional<JobState> s) {
  if (!s) {
    return DependencyState::kNeverSatisfied;
  }
  if (!is_terminal(*s)) {
    return DependencyState::kWaiting;
  }
  const bool ok = *s == JobState::kCompleted;
  switch (kind) {
    case AfterKind::kOk: return ok ? DependencyState::kMet : DependencyState::kNeverSatisfied;
    case AfterKind::kNotOk: return ok ? DependencyState::kNeverSatisfied : DependencyState::kMet;
    case AfterKind::kAny: return DependencyState::kMet;
  }
  return DependencyState::kNeverSatisfied;
}

}  // namespace

Result<std::vector<Dependency>> parse_dependency(const std::string& text) {
  std::vector<Dependency> out;
  if (text.empty()) {
    return out;
  }
  for (const std::string& item : split(text, ',')) {
    auto d = parse_item(item);
    if (!d.is_ok()) {
      return d.status();
    }
    out.push_back(std::move(*d));
  }
  return out;
}

DependencyState dependency_state(const std::vector<Dependency>& deps,
                                 const std::function<std::optional<JobState>(JobId)>& state_of) {
  DependencyState all = DependencyState::kMet;
  for (const Dependency& d : deps) {
    for (JobId id : d.jobs) {
      const DependencyState s = one(d.kind, state_of(id));
      if (s == DependencyState::kNeverSatisfied) {
        return s;
      }
      all = s == DependencyState::kWaiting ? s : all;
    }
  }
  return all;
}

}  // namespace boreas::server
