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

// Places the job with `victims` released; leaves the scratch as claiming them back would.
bool fits_without(const JobSpec& job, const std::vector<JobId>& victims, Placement& p, Scratch& s) {
  s.begin_trial();
  release_all(s, victims);
  const bool ok = p.place(job, s).has_value();
  s.end_trial();
  return ok;
}

// Whether the gang fits with every candidate released. When it does not, the scratch is left with
// the candidates' nodes touched in the order `single` would have touched them walking every
// candidate; when it does, so are they if `single` would walk every candidate (`no_single`: none
// of them can be enough alone), else the nodes touched here are forgotten, as `single` may stop
// early.
bool fits_with_all_released(const JobSpec& job, const std::vector<JobId>& candidates, Placement& p, Scratch& s,
                            bool no_single) {
  const size_t mark = s.touched_nodes().size();
  const bool fits = fits_without(job, candidates, p, s);
  if (fits && !no_single) {
    s.forget_touched_since(mark);
  }
  return fits;
}

// Whether the gang fits with `c` released, leaving the scratch as it was but for c's nodes touched.
// A gang of more GPUs than are free with c released fits no placement (place() gives the whole gang
// free GPUs): then only c's nodes are touched, as releasing and claiming c would touch them.
bool fits_without_one(const JobSpec& job, JobId c, Placement& p, Scratch& s) {
  const std::vector<GpuId>& gpus = s.view().record(c).gpus;
  if (job.gpus > s.total_free() + gpus.size()) {
    s.touch(gpus);
    return false;
  }
  return fits_without(job, {c}, p, s);
}

// The first candidate, in loss order, alone enough for the gang; every candidate passed the filter
// alone (choose_victims dropped the others), so the filter is not asked again.
std::optional<std::vector<JobId>> single(const JobSpec& job, const std::vector<JobId>& by_loss, Placement& p,
                                         Scratch& s) {
  for (JobId c : by_loss) {
    if (fits_without_one(job, c, p, s)) {
      return std::vector<JobId>{c};
    }
  }
  return std::nullopt;
}

// Asks whether a candidate may join a growing set: through the growing filter when there is one.
class Asker {
 public:
  Asker(const VictimFilter& may_add, GrowingVictimFilter* growing) : may_add_(may_add), growing_(growing) {}
  void restart() {
    if (growing_ != nullptr) {
      growing_->restart();
    }
  }
  bool admits(const std::vector<JobId>& chosen, JobId c) const {
    return growing_ != nullptr ? growing_->admits(c) : may_add_(chosen, c);
  }
  void joined(std::vector<JobId>& chosen, JobId c) {
    chosen.push_back(c);
    if (growing_ != nullptr) {
      growing_->join(c);
    }
  }

 private:
  const VictimFilter& may_add_;
  GrowingVictimFilter* growing_;
};

// The victims `greedy` would have chosen when no prefix of them lets the gang fit: every
// candidate it may add, in its order, up to `max_victims`.
std::vector<JobId> all_greedy_adds(const std::vector<JobId>& cands, uint32_t max_victims, Asker& ask) {
  std::vector<JobId> chosen;
  ask.restart();
  for (JobId c : cands) {
    if (chosen.size() >= max_victims) {
      break;
    }
    if (ask.admits(chosen, c)) {
      ask.joined(chosen, c);
    }
  }
  return chosen;
}

// The candidates greedy adds, in its order, up to the first set with which the gang fits; nullopt
// when none does. Each joining candidate's GPUs are released once and the set claimed back at the
// end, not the whole set released and claimed per try (fits_without per set: quadratic in the
// set): the same sets placed on the same scratch, the same nodes touched in the same order.
std::optional<std::vector<JobId>> first_fitting_prefix(const JobSpec& job, const std::vector<JobId>& cands,
                                                       uint32_t max_victims, Placement& p, Scratch& s, Asker& ask) {
  std::vector<JobId> chosen;
  ask.restart();
  bool fits = false;
  for (JobId c : cands) {
    if (chosen.size() >= max_victims) {
      break;
    }
    if (!ask.admits(chosen, c)) {
      continue;
    }
    ask.joined(chosen, c);
    s.release(s.view().record(c).gpus);
    fits = p.place(job, s).has_value();
    if (fits) {
      break;
    }
  }
  claim_all(s, chosen);
  return fits ? std::optional(std::move(chosen)) : std::nullopt;
}

// Largest gangs first, ties in the candidates' order (a stable sort, by the position as the last key).
void sort_largest_first(std::vector<JobId>& cands, const state::ClusterView& v) {
  std::vector<std::pair<uint64_t, JobId>> keyed;  // (GPUs to the high word, position), the job
  keyed.reserve(cands.size());
  for (uint32_t i = 0; i < cands.size(); ++i) {
    keyed.emplace_back((uint64_t{UINT32_MAX - v.spec(cands[i]).gpus} << 32) | i, cands[i]);
  }
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < keyed.size(); ++i) {
    cands[i] = keyed[i].second;
  }
}

std::optional<std::vector<JobId>> greedy(const JobSpec& job, std::vector<JobId> cands, uint32_t max_victims,
                                         Placement& p, Scratch& s, Asker& ask, bool monotone) {
  sort_largest_first(cands, s.view());
  // With a monotone placement each set tried is a prefix of this one: if it is too little, all are.
  if (monotone && !fits_without(job, all_greedy_adds(cands, max_victims, ask), p, s)) {
    return std::nullopt;
  }
  std::optional<std::vector<JobId>> chosen = first_fitting_prefix(job, cands, max_victims, p, s, ask);
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
// the least lost work × GPUs; ties in the candidates' order (a stable sort, by the position as the
// last key). Each key is computed once.
void sort_by_loss(std::vector<JobId>& candidates, const state::ClusterView& v) {
  struct Keyed {
    uint32_t preemptions;
    Duration loss;
    uint32_t at;
    JobId job;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(candidates.size());
  for (uint32_t i = 0; i < candidates.size(); ++i) {
    const JobId c = candidates[i];
    keyed.push_back({v.record(c).preemptions, lost_work(c, v) * v.spec(c).gpus, i, c});
  }
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.preemptions != b.preemptions) {
      return a.preemptions < b.preemptions;
    }
    return a.loss != b.loss ? a.loss < b.loss : a.at < b.at;
  });
  for (size_t i = 0; i < keyed.size(); ++i) {
    candidates[i] = keyed[i].job;
  }
}

// The largest candidate's GPUs.
size_t largest_gang(const std::vector<JobId>& candidates, const state::ClusterView& v) {
  size_t largest = 0;
  for (JobId c : candidates) {
    largest = std::max(largest, v.record(c).gpus.size());
  }
  return largest;
}

}  // namespace

bool placement_is_monotone(std::string_view name) {
  return name == "count" || name == "first-fit" || name == "pack" || name == "consolidated";
}

std::vector<JobId> victims_in_loss_order(std::vector<JobId> candidates, const state::ClusterView& view,
                                         const VictimFilter& may_add, GrowingVictimFilter* growing) {
  Asker ask(may_add, growing);
  ask.restart();
  std::erase_if(candidates, [&](JobId c) { return !ask.admits({}, c); });
  sort_by_loss(candidates, view);
  return candidates;
}

std::optional<Eviction> choose_victims(const JobSpec& job, std::vector<JobId> candidates, uint32_t max_victims,
                                       Placement& placement, Scratch& scratch, const VictimFilter& may_add,
                                       bool monotone, GrowingVictimFilter* growing) {
  const std::vector<JobId> ordered = victims_in_loss_order(std::move(candidates), scratch.view(), may_add, growing);
  return choose_victims_in_order(job, ordered, max_victims, placement, scratch, may_add, monotone, growing);
}

std::optional<Eviction> choose_victims_in_order(const JobSpec& job, const std::vector<JobId>& candidates,
                                                uint32_t max_victims, Placement& placement, Scratch& scratch,
                                                const VictimFilter& may_add, bool monotone,
                                                GrowingVictimFilter* growing) {
  if (candidates.empty() || max_victims == 0) {
    return std::nullopt;
  }
  Asker ask(may_add, growing);
  // No candidate alone frees enough GPUs: `single` would fail on each, touching their nodes.
  const bool no_single = job.gpus > scratch.total_free() + largest_gang(candidates, scratch.view());
  if (monotone && !fits_with_all_released(job, candidates, placement, scratch, no_single)) {
    return std::nullopt;
  }
  std::optional<std::vector<JobId>> victims;
  if (!(monotone && no_single)) {  // else the proof left the scratch as `single` would
    victims = single(job, candidates, placement, scratch);
  }
  if (!victims) {
    victims = greedy(job, candidates, max_victims, placement, scratch, ask, monotone);
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
