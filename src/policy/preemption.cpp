#include "policy/preemption.h"

#include <algorithm>

namespace boreas::policy {

Duration lost_work(JobId job, const state::ClusterView& view) {
  const state::JobRecord& r = view.record(job);
  if (r.last_start.is_never()) {
    return Duration::zero();
  }
  const Duration ran = view.now() - r.last_start;
  const Duration every = view.spec(job).checkpoint_interval;
  if (every <= Duration::zero()) {
    return ran;
  }
  return Duration::micros(ran.us() % every.us());
}

bool PreemptionGuard::not_retaliation(JobId victim, JobId preemptor, Time now) const {
  const auto it = last_.find(preemptor.value());
  return it == last_.end() || it->second.by != victim || now - it->second.at >= options_.hysteresis;
}

bool PreemptionGuard::priority_victim_ok(JobId victim, JobId preemptor, const state::ClusterView& view) const {
  const state::JobRecord& r = view.record(victim);
  return view.spec(victim).preemptible && r.preemptions < options_.max_per_job &&
         view.now() - r.last_start >= options_.min_runtime && not_retaliation(victim, preemptor, view.now());
}

void PreemptionGuard::record(JobId victim, JobId preemptor, Time now) {
  last_[victim.value()] = Last{preemptor, now};
}

namespace {

void release_all(Scratch& s, const std::vector<JobId>& jobs) {
  for (JobId j : jobs) {
    s.release(s.view().record(j).gpus);
  }
}
void claim_all(Scratch& s, const std::vector<JobId>& jobs) {
  for (JobId j : jobs) {
    s.claim(s.view().record(j).gpus);
  }
}

// Places the job with `victims` released; leaves the scratch as it was.
bool fits_without(const JobSpec& job, const std::vector<JobId>& victims, Placement& p, Scratch& s) {
  release_all(s, victims);
  const bool ok = p.place(job, s).has_value();
  claim_all(s, victims);
  return ok;
}

// Whether the gang fits with every candidate released. When it does not, the scratch is left with
// the candidates' nodes touched in the order `single` would have touched them walking every
// candidate; when it does, the nodes touched here are forgotten, as `single` may stop early.
bool fits_with_all_released(const JobSpec& job, const std::vector<JobId>& candidates, Placement& p, Scratch& s) {
  const size_t mark = s.touched_nodes().size();
  const bool fits = fits_without(job, candidates, p, s);
  if (fits) {
    s.forget_touched_since(mark);
  }
  return fits;
}

std::optional<std::vector<JobId>> single(const JobSpec& job, const std::vector<JobId>& by_loss, Placement& p,
                                         Scratch& s, const VictimFilter& may_add) {
  for (JobId c : by_loss) {
    if (may_add({}, c) && fits_without(job, {c}, p, s)) {
      return std::vector<JobId>{c};
    }
  }
  return std::nullopt;
}

// The victims `greedy` would have chosen when no prefix of them lets the gang fit: every
// candidate it may add, in its order, up to `max_victims`.
std::vector<JobId> all_greedy_adds(const std::vector<JobId>& cands, uint32_t max_victims, const VictimFilter& may_add) {
  std::vector<JobId> chosen;
  for (JobId c : cands) {
    if (chosen.size() >= max_victims) {
      break;
    }
    if (may_add(chosen, c)) {
      chosen.push_back(c);
    }
  }
  return chosen;
}

// The candidates greedy adds, in its order, up to the first set with which the gang fits; nullopt
// when none does. Each joining candidate's GPUs are released once and the set claimed back at the
// end, not the whole set released and claimed per try (fits_without per set: quadratic in the
// set): the same sets placed on the same scratch, the same nodes touched in the same order.
std::optional<std::vector<JobId>> first_fitting_prefix(const JobSpec& job, const std::vector<JobId>& cands,
                                                       uint32_t max_victims, Placement& p, Scratch& s,
                                                       const VictimFilter& may_add) {
  std::vector<JobId> chosen;
  bool fits = false;
  for (JobId c : cands) {
    if (chosen.size() >= max_victims) {
      break;
    }
    if (!may_add(chosen, c)) {
      continue;
    }
    chosen.push_back(c);
    s.release(s.view().record(c).gpus);
    fits = p.place(job, s).has_value();
    if (fits) {
      break;
    }
  }
  claim_all(s, chosen);
  return fits ? std::optional(std::move(chosen)) : std::nullopt;
}

std::optional<std::vector<JobId>> greedy(const JobSpec& job, std::vector<JobId> cands, uint32_t max_victims,
                                         Placement& p, Scratch& s, const VictimFilter& may_add, bool monotone) {
  const auto& v = s.view();
  std::stable_sort(cands.begin(), cands.end(),
                   [&](JobId a, JobId b) { return v.spec(a).gpus > v.spec(b).gpus; });
  // With a monotone placement each set tried is a prefix of this one: if it is too little, all are.
  if (monotone && !fits_without(job, all_greedy_adds(cands, max_victims, may_add), p, s)) {
    return std::nullopt;
  }
  std::optional<std::vector<JobId>> chosen = first_fitting_prefix(job, cands, max_victims, p, s, may_add);
  if (!chosen) {
    return std::nullopt;
  }
  // Drop victims that turn out unnecessary, the most recently added (smallest) last.
  for (size_t i = 0; i < chosen->size() && chosen->size() > 1;) {
    std::vector<JobId> fewer = *chosen;
    fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
    if (fits_without(job, fewer, p, s)) {
      *chosen = std::move(fewer);
    } else {
      ++i;
    }
  }
  return chosen;
}

// Fewest preemptions so far first, so that restarted victims are not hit again and again; then
// the least lost work × GPUs. Each key is computed once (a stable sort on the same keys).
void sort_by_loss(std::vector<JobId>& candidates, const state::ClusterView& v) {
  struct Keyed {
    uint32_t preemptions;
    Duration loss;
    JobId job;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(candidates.size());
  for (JobId c : candidates) {
    keyed.push_back({v.record(c).preemptions, lost_work(c, v) * v.spec(c).gpus, c});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    return a.preemptions != b.preemptions ? a.preemptions < b.preemptions : a.loss < b.loss;
  });
  for (size_t i = 0; i < keyed.size(); ++i) {
    candidates[i] = keyed[i].job;
  }
}

}  // namespace

bool placement_is_monotone(std::string_view name) {
  return name == "count" || name == "first-fit" || name == "pack" || name == "consolidated";
}

std::optional<Eviction> choose_victims(const JobSpec& job, std::vector<JobId> candidates, uint32_t max_victims,
                                       Placement& placement, Scratch& scratch, const VictimFilter& may_add,
                                       bool monotone) {
  std::erase_if(candidates, [&](JobId c) { return !may_add({}, c); });
  if (candidates.empty() || max_victims == 0) {
    return std::nullopt;
  }
  sort_by_loss(candidates, scratch.view());
  if (monotone && !fits_with_all_released(job, candidates, placement, scratch)) {
    return std::nullopt;
  }
  auto victims = single(job, candidates, placement, scratch, may_add);
  if (!victims) {
    victims = greedy(job, candidates, max_victims, placement, scratch, may_add, monotone);
  }
  if (!victims) {
    return std::nullopt;
  }
  release_all(scratch, *victims);
  auto gpus = placement.place(job, scratch);
  if (!gpus) {
    claim_all(scratch, *victims);
    return std::nullopt;
  }
  scratch.claim(*gpus);
  return Eviction{std::move(*victims), std::move(*gpus)};
}

}  // namespace boreas::policy
