#include "policy/placement_hetero.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

#include "models/param_check.h"
#include "policy/placement_hetero_lp.h"
#include "policy/placement_util.h"

namespace boreas::policy {

Status validate(const HeteroOptions& o) {
  BOREAS_RETURN_IF_ERROR(models::ParamCheck("hetero placement")
                             .positive("max_jobs", o.max_jobs)
                             .at_least("max_wait (s)", o.max_wait.to_seconds(), 0)
                             .in("favoured_share", o.favoured_share, 0, 1)
                             .status());
  return models::validate(o.throughput);
}

namespace {

// The nodes of one type with free GPUs as (free, node), fewest free first; nodes this round's
// scratch already touched first, so a stable sort keeps them ahead of equal untouched ones.
std::vector<std::pair<uint32_t, NodeId>> free_nodes_of_type(GpuTypeId type, const Scratch& s) {
  const auto& view = s.view();
  const auto& index = view.state().free_index();
  std::vector<std::pair<uint32_t, NodeId>> nodes;
  for (NodeId n : s.touched_nodes()) {
    if (view.cluster().nodes[n.value()].gpu_type == type && s.node_free(n) > 0) {
      nodes.emplace_back(s.node_free(n), n);
    }
  }
  for (uint32_t f = 1; f <= index.max_free(type); ++f) {
    for (NodeId n : index.nodes_with(type, f)) {
      if (!s.touched(n)) {
        nodes.emplace_back(f, n);
      }
    }
  }
  std::stable_sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return nodes;
}

// Adds free GPUs of one type to `out` until it holds `gpus`, the nodes with the most free first
// (the fewest nodes).
void take_most_free_first(GpuTypeId type, uint32_t gpus, const Scratch& s, std::vector<GpuId>& out) {
  const auto nodes = free_nodes_of_type(type, s);
  for (auto it = nodes.rbegin(); it != nodes.rend() && out.size() < gpus; ++it) {
    s.take_free_on_node(it->second, gpus - static_cast<uint32_t>(out.size()), out);
  }
}

// Best fit on one GPU type: the node of that type with the fewest free GPUs that holds the gang;
// else the nodes of that type with the most free GPUs. A gang never mixes types here (it would run
// at the slower pace).
std::optional<std::vector<GpuId>> place_on_type(const JobSpec& job, GpuTypeId type, const Scratch& s) {
  std::vector<GpuId> out;
  for (const auto& [f, n] : free_nodes_of_type(type, s)) {
    if (f >= job.gpus) {
      s.take_free_on_node(n, job.gpus, out);
      return out;
    }
  }
  take_most_free_first(type, job.gpus, s, out);
  if (out.size() < job.gpus) {
    return std::nullopt;
  }
  return out;
}

class HeteroPlacement final : public Placement {
 public:
  explicit HeteroPlacement(HeteroOptions o) : o_(std::move(o)), model_(o_.throughput) {}
  std::string_view name() const override { return "hetero"; }

  std::optional<std::vector<GpuId>> place(const JobSpec& job, const Scratch& s) override {
    if (job.gpus > s.total_free()) {
      return std::nullopt;
    }
    const auto& view = s.view();
    prepare(view);
    const size_t g = group_of(job, view);
    count(view);
    if (needs_lp(g) && (view.now() != solved_at_ || !solved_)) {
      solve(view);
    }
    for (GpuTypeId t : type_order(g, job, view)) {
      if (auto out = place_on_type(job, t, s)) {
        return out;
      }
    }
    return mixed_types(job, g, s);
  }

  // The LP's shares for the group of `job` (after a place() in this round), for tests and explain.
  const std::vector<double>& shares(const JobSpec& job, const state::ClusterView& view) {
    const size_t g = group_of(job, view);
    count(view);
    if (view.now() != solved_at_ || !solved_) {
      solve(view);
    }
    return x_[g];
  }

 private:
  void prepare(const state::ClusterView& view) {
    if (table_) {
      return;
    }
    table_ = std::make_unique<models::ThroughputTable>(model_, view.cluster().catalog);
    capacity_.assign(view.cluster().catalog.size(), 0);
    for (const Node& n : view.cluster().nodes) {
      if (n.gpu_type) {
        capacity_[n.gpu_type->value()] += n.gpu_count;
      }
    }
  }

  // No single type holds the gang: once it may leave its favoured types, it spans types (as
  // `count` would, so that a count-based preemptive walk never grants a job it then cannot place).
  // A gang runs at its slowest GPU's pace, so it takes the fastest types first: the slowest type
  // it then needs is the fastest one possible.
  std::optional<std::vector<GpuId>> mixed_types(const JobSpec& job, size_t g, const Scratch& s) {
    if (!may_leave_favoured(job, s.view())) {
      return std::nullopt;
    }
    const std::vector<double>& rate = rows_[g].rate;
    std::vector<GpuTypeId> order = types_.allowed(job, s.view());
    std::stable_sort(order.begin(), order.end(),
                     [&](GpuTypeId a, GpuTypeId b) { return rate[a.value()] > rate[b.value()]; });
    std::vector<GpuId> out;
    for (GpuTypeId t : order) {
      take_most_free_first(t, job.gpus, s, out);
    }
    if (out.size() < job.gpus) {
      return std::nullopt;
    }
    return out;
  }

  bool may_leave_favoured(const JobSpec& job, const state::ClusterView& view) const {
    return view.running().empty() || view.now() - view.record(job.id).pending_since >= o_.max_wait;
  }

  // A group is a (job class, allowed types) pair; its throughput row comes from the table.
  size_t group_of(const JobSpec& job, const state::ClusterView& view) {
    auto [cls, added] = class_of_.try_emplace(job.job_class.index(), 0);
    if (added) {
      cls->second = model_.class_index(view.state().symbols().view(job.job_class));
    }
    const auto key = std::make_pair(cls->second, job.gpu_types.index());
    auto [it, inserted] = groups_.try_emplace(key, rows_.size());
    if (inserted) {
      LpGroup row;
      row.rate.assign(capacity_.size(), 0);
      for (GpuTypeId t : types_.allowed(job, view)) {
        row.rate[t.value()] = table_->rate(cls->second, t);
      }
      fill_unrated(row, types_.allowed(job, view));
      rows_.push_back(std::move(row));
      only_type_.push_back(single_usable_type(types_.allowed(job, view)));
      stranded_ = stranded_ || usable_types(types_.allowed(job, view)) == 0;
      solved_ = false;  // a new group: the allocation must include it
      recount_ = true;
    }
    return it->second;
  }

  // Types the throughput model cannot rate (no TFLOPS or bandwidth in the catalog) get the row's
  // slowest known rate, or 1 when none is known: usable, never preferred on a guess.
  static void fill_unrated(LpGroup& row, const std::vector<GpuTypeId>& allowed) {
    double slowest = 0;
    for (GpuTypeId t : allowed) {
      const double r = row.rate[t.value()];
      slowest = r > 0 && (slowest == 0 || r < slowest) ? r : slowest;
    }
    for (GpuTypeId t : allowed) {
      if (row.rate[t.value()] <= 0) {
        row.rate[t.value()] = slowest > 0 ? slowest : 1;
      }
    }
  }

  // The GPUs of each group over the running jobs and the first max_jobs pending ones: the LP's
  // input, counted again at a new instant or once a new group appeared (when the LP was solved
  // again before it was solved only when needed).
  void count(const state::ClusterView& view) {
    if (view.now() == counted_at_ && !recount_) {
      return;
    }
    for (LpGroup& row : rows_) {
      row.gpus = 0;
    }
    auto add = [&](JobId j) { rows_[cached_group(j, view)].gpus += view.spec(j).gpus; };
    for (JobId j : view.running()) {
      add(j);
    }
    uint32_t taken = 0;
    for (auto it = view.pending().begin(); it != view.pending().end() && taken < o_.max_jobs; ++it, ++taken) {
      add(*it);
    }
    counted_at_ = view.now();
    recount_ = false;
    solved_ = false;
  }

  // The allowed types the cluster has GPUs of (the LP's usable columns for the group).
  size_t usable_types(const std::vector<GpuTypeId>& allowed) const {
    return static_cast<size_t>(
        std::count_if(allowed.begin(), allowed.end(), [&](GpuTypeId t) { return capacity_[t.value()] > 0; }));
  }
  std::optional<GpuTypeId> single_usable_type(const std::vector<GpuTypeId>& allowed) const {
    if (usable_types(allowed) != 1) {
      return std::nullopt;
    }
    return *std::find_if(allowed.begin(), allowed.end(), [&](GpuTypeId t) { return capacity_[t.value()] > 0; });
  }

  // Whether the group's type order needs the LP's shares. A group with one usable type is favoured
  // on it whatever the other groups ask for, as long as every group has a usable type: ε > 0 on
  // every usable column is feasible, so the optimum's z (the least normalised throughput) is > 0,
  // and z ≤ normalised rate × x[g][t] gives that type a positive share — the largest of the
  // group's (its other columns are fixed at 0), so it is favoured at any favoured_share ≤ 1. A
  // group with no usable type holds z at 0, and then a share may be 0: the LP decides.
  bool needs_lp(size_t g) const { return !only_type_[g] || stranded_; }

  // The LP over the counted GPUs (count() of this round).
  void solve(const state::ClusterView& view) {
    auto x = max_min_allocation(rows_, capacity_);
    // Should GLPK fail, every type counts as favoured: the placement degrades to fastest-type-first.
    x_ = x.is_ok() ? std::move(*x) : std::vector<std::vector<double>>(rows_.size(), std::vector<double>(capacity_.size(), 1));
    solved_at_ = view.now();
    solved_ = true;
  }

  // group_of by job id: a job's class and allowed types never change (a placement sees one
  // state, whose job table only grows, for its life).
  size_t cached_group(JobId job, const state::ClusterView& view) {
    if (group_by_job_.size() <= job.value()) {
      group_by_job_.resize(view.job_count(), kNoGroup);
    }
    size_t& g = group_by_job_[job.value()];
    if (g == kNoGroup) {
      g = group_of(view.spec(job), view);
    }
    return g;
  }

  // Favoured types by share, then (once the job has waited max_wait, or when nothing runs that
  // could free a favoured type) the other allowed types by throughput.
  std::vector<GpuTypeId> type_order(size_t g, const JobSpec& job, const state::ClusterView& view) {
    const std::vector<double>& rate = rows_[g].rate;
    if (!needs_lp(g)) {
      return one_type_order(*only_type_[g], job, view);
    }
    const std::vector<double>& share = x_[g];
    const double top = *std::max_element(share.begin(), share.end());
    auto favoured = [&](GpuTypeId t) { return share[t.value()] > 0 && share[t.value()] >= o_.favoured_share * top; };
    const bool waited = may_leave_favoured(job, view);
    std::vector<GpuTypeId> out;
    for (GpuTypeId t : types_.allowed(job, view)) {
      if (rate[t.value()] > 0 && (favoured(t) || waited)) {
        out.push_back(t);
      }
    }
    std::stable_sort(out.begin(), out.end(), [&](GpuTypeId a, GpuTypeId b) {
      if (favoured(a) != favoured(b)) {
        return favoured(a);
      }
      if (favoured(a) && share[a.value()] != share[b.value()]) {
        return share[a.value()] > share[b.value()];
      }
      return rate[a.value()] > rate[b.value()];
    });
    return out;
  }

  // type_order() for a group whose one usable type `only` is favoured (needs_lp() is false): that
  // type, then, once the job may leave it, the other allowed types (no GPUs on this cluster) by
  // throughput.
  std::vector<GpuTypeId> one_type_order(GpuTypeId only, const JobSpec& job, const state::ClusterView& view) {
    std::vector<GpuTypeId> out{only};
    if (!may_leave_favoured(job, view)) {
      return out;
    }
    const std::vector<double>& rate = rows_[group_of(job, view)].rate;
    for (GpuTypeId t : types_.allowed(job, view)) {
      if (t != only && rate[t.value()] > 0) {
        out.push_back(t);
      }
    }
    std::stable_sort(out.begin() + 1, out.end(),
                     [&](GpuTypeId a, GpuTypeId b) { return rate[a.value()] > rate[b.value()]; });
    return out;
  }

  HeteroOptions o_;
  models::ThroughputModel model_;
  std::unique_ptr<models::ThroughputTable> table_;
  std::vector<double> capacity_;
  std::unordered_map<uint32_t, size_t> class_of_;            // job_class symbol -> class index
  std::map<std::pair<size_t, uint32_t>, size_t> groups_;     // (class, gpu_types symbol) -> row
  std::vector<LpGroup> rows_;
  std::vector<std::vector<double>> x_;
  static constexpr size_t kNoGroup = SIZE_MAX;
  std::vector<size_t> group_by_job_;  // kNoGroup until the job is first counted
  std::vector<std::optional<GpuTypeId>> only_type_;  // by group: its one usable type, if one
  bool stranded_ = false;             // some group has no usable type (the LP's z is then 0)
  Time counted_at_ = Time::never();   // the instant whose GPUs rows_ holds
  bool recount_ = true;               // a group appeared since the last count
  Time solved_at_ = Time::never();
  bool solved_ = false;
};

}  // namespace

std::unique_ptr<Placement> make_hetero_placement(const HeteroOptions& options) {
  return std::make_unique<HeteroPlacement>(options);
}

}  // namespace boreas::policy
