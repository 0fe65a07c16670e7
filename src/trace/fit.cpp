#include "trace/fit.h"

#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/gpu_match.h"
#include "trace/text.h"
#include "trace/transform.h"

namespace boreas::trace {
namespace {

// What a job's list of GPU type names allows on the catalog, or why it allows nothing.
struct TypeVerdict {
  std::vector<GpuTypeId> types;  // empty with `failure` set, or when the job names no type (any)
  std::optional<UnfitReason> failure;
  std::string why;
};

std::string type_names(const GpuCatalog& catalog, const std::vector<GpuTypeId>& ids, std::string_view sep) {
  std::string out;
  for (GpuTypeId id : ids) {
    append_joined(out, sep, catalog.at(id).name);
  }
  return out;
}

TypeVerdict resolve_names(std::string_view names, const GpuCatalog& catalog) {
  TypeVerdict v;
  std::optional<std::pair<std::string, GpuTypeMatch>> ambiguous;
  while (true) {
    const size_t bar = names.find('|');
    const std::string_view name = names.substr(0, bar);
    GpuTypeMatch m = match_gpu_type(catalog, name);
    if (m.id) {
      v.types.push_back(*m.id);
    } else if (!m.candidates.empty() && !ambiguous) {
      ambiguous.emplace(std::string(name), std::move(m));
    }
    if (bar == std::string_view::npos) {
      break;
    }
    names = names.substr(bar + 1);
  }
  if (!v.types.empty()) {
    return v;
  }
  if (ambiguous) {
    v.failure = UnfitReason::kAmbiguousType;
    v.why = fmt::format("GPU type '{}' is ambiguous: it could be {}", ambiguous->first,
                        type_names(catalog, ambiguous->second.candidates, " or "));
  } else {
    v.failure = UnfitReason::kUnknownType;
    v.why = fmt::format("GPU type '{}' matches no catalog type", std::string(names));
  }
  return v;
}

class FitChecker {
 public:
  FitChecker(const Cluster& cluster, const Trace& trace) : cluster_(cluster), trace_(trace) {
    for (const Node& n : cluster.nodes) {
      if (n.gpu_type) {
        gpus_by_type_[n.gpu_type->value()] += n.gpu_count;
        total_ += n.gpu_count;
      }
    }
  }

  std::optional<UnfitJob> check(const JobSpec& job) {
    if (job.gpus == 0) {
      return std::nullopt;
    }
    const TypeVerdict& v = verdict(job.gpu_types);
    if (v.failure) {
      return UnfitJob{job.id, *v.failure, v.why};
    }
    const uint64_t have = v.types.empty() ? total_ : capacity(v.types);
    const std::string of = v.types.empty() ? "" : " of " + type_names(cluster_.catalog, v.types, "|");
    if (have == 0 && !v.types.empty()) {
      return UnfitJob{job.id, UnfitReason::kTypeNotInCluster,
                      fmt::format("GPU type '{}' ({}) is not in the cluster, which has {}",
                                  trace_.symbols.view(job.gpu_types), type_names(cluster_.catalog, v.types, "|"),
                                  cluster_types())};
    }
    if (job.gpus > have) {
      return UnfitJob{job.id, UnfitReason::kTooManyGpus,
                      fmt::format("more GPUs than the cluster's {}{}", have, of)};
    }
    return std::nullopt;
  }

 private:
  const TypeVerdict& verdict(Symbol types) {
    auto [it, inserted] = verdicts_.try_emplace(types.index());
    if (inserted && !types.empty()) {
      it->second = resolve_names(trace_.symbols.view(types), cluster_.catalog);
    }
    return it->second;
  }

  uint64_t capacity(const std::vector<GpuTypeId>& types) const {
    uint64_t n = 0;
    for (GpuTypeId t : types) {
      const auto it = gpus_by_type_.find(t.value());
      n += it == gpus_by_type_.end() ? 0 : it->second;
    }
    return n;
  }

  std::string cluster_types() const {
    std::string out;
    for (const auto& [type, n] : gpus_by_type_) {
      append_joined(out, ", ", fmt::format("{} ×{}", cluster_.catalog.at(GpuTypeId(type)).name, n));
    }
    return out.empty() ? "no GPUs" : out;
  }

  const Cluster& cluster_;
  const Trace& trace_;
  std::map<uint32_t, uint64_t> gpus_by_type_;  // ordered: messages list types in catalog order
  uint64_t total_ = 0;
  std::unordered_map<uint32_t, TypeVerdict> verdicts_;
};

std::string job_label(const Trace& trace, JobId id) {
  const std::string_view name = trace.symbols.view(trace.jobs[id.value()].name);
  return name.empty() ? "#" + std::to_string(id.value()) : std::string(name);
}

}  // namespace

std::vector<UnfitJob> find_unfit_jobs(const Cluster& cluster, const Trace& trace) {
  FitChecker checker(cluster, trace);
  std::vector<UnfitJob> out;
  for (const JobSpec& job : trace.jobs) {
    if (auto u = checker.check(job)) {
      out.push_back(std::move(*u));
    }
  }
  return out;
}

std::string describe_unfit(const std::vector<UnfitJob>& unfit, const Trace& trace, const Cluster& cluster,
                           size_t ids_shown) {
  std::vector<std::string> causes;  // in order of first appearance
  std::map<std::string, std::vector<JobId>> jobs_by_cause;
  for (const UnfitJob& u : unfit) {
    auto& ids = jobs_by_cause[u.why];
    if (ids.empty()) {
      causes.push_back(u.why);
    }
    ids.push_back(u.job);
  }
  std::string out = fmt::format("{} of {} jobs can never run on cluster '{}' ({} GPUs):", unfit.size(),
                                trace.jobs.size(), cluster.name, cluster.gpu_count());
  for (const std::string& why : causes) {
    const auto& ids = jobs_by_cause[why];
    std::string shown;
    for (size_t i = 0; i < std::min(ids.size(), ids_shown); ++i) {
      append_joined(shown, ", ", job_label(trace, ids[i]));
    }
    out += fmt::format("\n  {} job(s): {} (jobs {}{})", ids.size(), why, shown, ids.size() > ids_shown ? ", ..." : "");
  }
  return out;
}

void drop_unfit_jobs(Trace& trace, const std::vector<UnfitJob>& unfit) {
  std::vector<JobId> ids;
  ids.reserve(unfit.size());
  for (const UnfitJob& u : unfit) {
    ids.push_back(u.job);
  }
  remove_jobs(trace, ids);
}

}  // namespace boreas::trace
