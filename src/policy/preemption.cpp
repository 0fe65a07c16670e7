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

std::optional<std::vector<JobId>> single(const JobSpec& job, const std::vector<JobId>& by_loss, Placement& p,
                                         Scratch& s, const VictimFilter& may_add) {
  for (JobId c : by_loss) {
    if (may_add({}, c) && fits_without(job, {c}, p, s)) {
      return std::vector<JobId>{c};
    }
  }
  return std::nullopt;
}

std::optional<std::vector<JobId>> greedy(const JobSpec& job, std::vector<JobId> cands, uint32_t max_victims,
                                         Placement& p, Scratch& s, const VictimFilter& may_add) {
  const auto& v = s.view();
  std::stable_sort(cands.begin(), cands.end(),
                   [&](JobId a, JobId b) { return v.spec(a).gpus > v.spec(b).gpus; });
  std::vector<JobId> chosen;
  for (JobId c : cands) {
    if (chosen.size() >= max_victims) {
      break;
    }
    if (!may_add(chosen, c)) {
      continue;
    }
    chosen.push_back(c);
    if (fits_without(job, chosen, p, s)) {
      // Drop victims that turn out unnecessary, the most recently added (smallest) last.
      for (size_t i = 0; i < chosen.size() && chosen.size() > 1;) {
        std::vector<JobId> fewer = chosen;
        fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
        if (fits_without(job, fewer, p, s)) {
          chosen = std::move(fewer);
        } else {
          ++i;
        }
      }
      return chosen;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Eviction> choose_victims(const JobSpec& job, std::vector<JobId> candidates, uint32_t max_victims,
                                       Placement& placement, Scratch& scratch, const VictimFilter& may_add) {
  if (candidates.empty() || max_victims == 0) {
    return std::nullopt;
  }
  const auto& v = scratch.view();
  // Fewest preemptions so far first, so that restarted victims are not hit again and again.
  std::stable_sort(candidates.begin(), candidates.end(), [&](JobId a, JobId b) {
    const uint32_t pa = v.record(a).preemptions, pb = v.record(b).preemptions;
    return pa != pb ? pa < pb : lost_work(a, v) * v.spec(a).gpus < lost_work(b, v) * v.spec(b).gpus;
  });
  auto victims = single(job, candidates, placement, scratch, may_add);
  if (!victims) {
    victims = greedy(job, candidates, max_victims, placement, scratch, may_add);
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
